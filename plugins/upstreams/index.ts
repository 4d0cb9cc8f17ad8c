/** upstreams: the registered MCP servers, their connections and their tools in the catalogue. */
import { definePlugin, ownerOf, type McpServerDefinition } from '../../kernel/index.js';
import { authProblems } from '../../lib/server-auth/auth-mode.js';
import { Upstreams } from './registry.js';
import { outboundPolicy } from '../../lib/net/outbound-policy.js';
import { MCP_SERVER_KIND } from './mcpserver-kind.js';
import { SECRET_POLL_SECONDS } from './secret-rotation.js';

export default definePlugin<{ secretPollSeconds: number }>({
  name: 'upstreams',
  description: 'Connects to the registered MCP servers and puts their tools, resources and prompts in the catalogue.',
  provides: ['upstreams'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      secretPollSeconds: {
        type: 'integer',
        minimum: 0,
        maximum: 3600,
        default: SECRET_POLL_SECONDS,
        description:
          "How often the files and secrets.env entries a server's env and headers reference are read again: a renewed credential takes effect without a restart (docs/secrets.md). 0: only when the server connects.",
      },
    },
  },
  setup({ kernel, log, options }) {
    kernel.config.addKind(MCP_SERVER_KIND);
    // Files get the auth rules core_mcpserver_create applies (a document's path within it is the field).
    kernel.config.addCheck((kind, value, raw) =>
      kind !== MCP_SERVER_KIND.name
        ? []
        : authProblems(value as McpServerDefinition).map((p) => ({ file: raw.parsed.file, ...raw.parsed.locate(p.field.split('.')), ...p })),
    );
    const upstreams = new Upstreams(kernel, log, { secretPollMs: options.secretPollSeconds * 1000 });
    let booted = false;
    kernel.services.provide('upstreams', upstreams);
    // An allow entry that means nothing would silently admit nothing: say so where it is written.
    kernel.config.addSettingsCheck((settings, parsed) =>
      outboundPolicy(settings).problems.map((p) => {
        const path = ['aggregator', 'network', 'allow', p.index];
        return { file: parsed.file, ...parsed.locate(path), field: path.join('.'), message: p.message };
      }),
    );
    kernel.hooks.onConfigLoad.tapPromise('upstreams', (next) => upstreams.reconcile(next, !booted));
    // After the toolset (stage 0): a caller sees a server waiting for sign-in only once signed in.
    kernel.hooks.onRequest.tap({ name: 'upstreams', stage: 10 }, (request) => upstreams.narrow(request));
    kernel.hooks.onSessionOpen.tap('upstreams', (session) => {
      if (session.identity) upstreams.sessionOpened(ownerOf(session));
    });
    return {
      start() {
        booted = true;
      },
      stop: () => upstreams.stopAll(),
    };
  },
});
