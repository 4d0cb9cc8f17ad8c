/**
 * What a user is told about a YAML file no registered kind reads: most likely its kind's
 * plugin is switched off (workflows/*.yaml with `plugins: {workflows: false}`). Starting
 * anyway is right (switching a plugin off is deliberate); saying nothing would leave the
 * user wondering why the file does nothing. The store cannot know which plugin would own
 * the directory (a plugin that is off registered nothing), so the warning names the file
 * and the plugins config.yaml switches off.
 */
import { switchedOffClause, type Settings } from '../../kernel/index.js';

export function unclaimedFileWarning(path: string, directory: string, settings: Pick<Settings, 'plugins'>): string {
  return `${path} is ignored: no plugin that is on keeps resources in '${directory}/'${switchedOffClause(settings.plugins)}`;
}
