/**
 * What cluster mode needs from the rest of the configuration: replicas share OAuth records
 * only when they are kept (storage.persistent) and sealed with one key every replica has.
 */
import type { ConfigProblem, ParsedYaml, Settings } from '../../kernel/index.js';

export function clusterProblems(settings: Settings, where: Pick<ParsedYaml, 'file' | 'locate'>): ConfigProblem[] {
  if (!settings.aggregator.cluster) return [];
  const server = settings.aggregator.oauth.server;
  if (!server.enabled || (server.storage.persistent && server.storage.encryptionKey !== undefined)) return [];
  const path = ['aggregator', 'oauth', 'server', 'storage'];
  return [
    {
      file: where.file,
      ...where.locate(path),
      field: path.join('.'),
      message:
        'cluster mode shares OAuth tokens and grants between replicas: set persistent: true and an encryptionKey every replica reads (otherwise each replica seals with its own random key and knows only its own tokens)',
    },
  ];
}
