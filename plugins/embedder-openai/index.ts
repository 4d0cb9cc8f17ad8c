/**
 * embedder-openai: the `embedder` service over any OpenAI-compatible `/v1/embeddings`
 * endpoint (OpenAI, Ollama, TEI, vLLM; `embedder.openai`). Without that setting it does
 * nothing and loads nothing. The key is an operator secret (`${ENV}` or `{fromFile}`),
 * resolved at startup, read again when the endpoint refuses it, and scrubbed from logs and
 * results; the endpoint obeys the outbound policy like every connection Switchboard makes on
 * its own.
 */
import { ConfigInvalidError, definePlugin } from '../../kernel/index.js';

export default definePlugin({
  name: 'embedder-openai',
  description: 'Semantic tool search through an OpenAI-compatible /v1/embeddings endpoint (embedder.openai).',
  provides: ['embedder'],
  async setup({ kernel }) {
    const s = kernel.settings().embedder?.openai;
    if (!s) return;
    const base = new URL(s.baseUrl);
    if (base.username || base.password) {
      throw new ConfigInvalidError([
        { file: 'config.yaml', line: 0, column: 0, field: 'embedder.openai.baseUrl', message: 'carries credentials: put the key in embedder.openai.apiKey' },
      ]);
    }
    const { renewableReference } = await import('../../lib/secrets/renewable-secret.js');
    // Read again when the endpoint refuses it: a key renewed in its file or in secrets.env
    // takes effect without a restart (lib/secrets/renewable-secret.ts).
    const apiKey =
      s.apiKey === undefined
        ? undefined
        : renewableReference(s.apiKey, 'embedder.openai.apiKey', {
            configPath: kernel.config.configPath,
            env: process.env,
            onSecret: (v) => kernel.secrets.add(v),
          });
    // A literal key in config.yaml is no reference, but it is a secret all the same.
    if (apiKey?.current) kernel.secrets.add(apiKey.current);
    const { outboundPolicy } = await import('../../lib/net/outbound-policy.js');
    const { OpenAiEmbedder } = await import('./openai-embedder.js');
    kernel.services.provide(
      'embedder',
      new OpenAiEmbedder(s, { apiKey, resolve: (url) => outboundPolicy(kernel.settings()).resolve(url.hostname, 'embedder.openai.baseUrl') }),
    );
  },
});
