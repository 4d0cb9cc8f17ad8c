/**
 * What a start loads (issue 37 item 4: load what a switched-off plugin needs only when it is
 * on): a Switchboard serving one stdio server with the defaults loads no module of a plugin
 * that is off (code mode, Cedar), nor the packages only a plugin that is on but idle needs (the
 * OAuth server, cluster mode, orchestrator mode, metrics' exporter, the SDK's SSE transports and
 * OAuth client), nor re2js before a template matches a pattern; the MCP SDK comes from its bundle, not file by file. The modules are recorded by a loader hook given through NODE_OPTIONS, as an
 * operator could.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startSwitchboard, stdioServer, TEST_SERVER } from '../support/harness.js';
import { loadedModules, recordModules } from '../support/module-recorder.js';

/** Packages only a plugin that is off or idle by default uses. */
const IDLE_PACKAGES = ['oidc-provider', 'oauth4webapi', '@kubernetes/client-node', 'ioredis', '@opentelemetry/', 'quickjs-emscripten', '@cedar-policy/'];
/** Packages only a template that uses them loads: re2js for regular expressions and semver constraints. */
const ON_FIRST_USE = ['re2js'];

describe('modules a start loads', function () {
  this.timeout(120_000);

  it('with the defaults, none of a switched-off or idle plugin, and of jose only the JWT decoder', async () => {
    const out = join(tmpdir(), `switchboard-modules-${process.pid}-${Date.now()}.txt`);
    const sb = await startSwitchboard({ 'mcpservers/test.yaml': stdioServer('test', TEST_SERVER) }, { env: recordModules(out) });
    try {
      await sb.stop();
      const { files, modules } = await loadedModules(out);
      // `npm run build` bundled the program and bin/switchboard.js ran the bundle: no file of
      // the kernel or of a plugin as tsc wrote it (one kernel in the process).
      expect(files.some((m) => m.endsWith('/dist/bundle/main.js'))).to.equal(true);
      // (The build's prebuilt validators are required from dist/kernel/config/prebuilt/.)
      const compiledByTsc = (m: string) => (m.includes('/dist/kernel/') && !m.includes('/dist/kernel/config/prebuilt/')) || m.includes('/dist/plugins/');
      expect(files.filter(compiledByTsc)).to.deep.equal([]);
      // The recorder works: what every start needs is there.
      expect(modules.some((m) => m.includes('/dist/kernel/kernel.js'))).to.equal(true);
      expect(modules.some((m) => m.includes('/dist/plugins/upstreams/index.js'))).to.equal(true);
      expect(modules.some((m) => m.includes('/node_modules/jose/dist/webapi/util/decode_jwt.js'))).to.equal(true);
      // ...and what is required, not imported: the configuration's prebuilt validators.
      expect(modules.some((m) => m.endsWith('/dist/kernel/config/prebuilt/config.cjs'))).to.equal(true);
      // A package's large JSON (mime-db, read by koa) is required from its own file beside the
      // chunks, so its text does not stay in a chunk's source (scripts/build-program.js).
      expect(files.filter((m) => /\/dist\/bundle\/data-[0-9a-f]{12}\.json$/.test(m))).to.have.length.above(0);

      const loaded = (part: string) => modules.filter((m) => m.includes(part));
      for (const pkg of [...IDLE_PACKAGES, ...ON_FIRST_USE]) expect(loaded(`/node_modules/${pkg}`), pkg).to.deep.equal([]);
      // Off: code mode and Cedar are opt-in.
      expect(loaded('/dist/plugins/code-mode/'), 'code-mode is off').to.deep.equal([]);
      expect(loaded('/dist/plugins/authorization-cedar/'), 'authorization-cedar is off').to.deep.equal([]);
      // The OAuth server is on but not enabled: neither sign-in, the identity provider, DPoP nor jose's signing code.
      for (const file of ['identity-provider.js', 'dpop.js', 'sign-in.js', 'provider.js', 'token-exchange.js'])
        expect(loaded(`/dist/plugins/auth-server/${file}`), file).to.deep.equal([]);
      expect(loaded('/node_modules/jose/dist/webapi/index.js'), "jose's index").to.deep.equal([]);
      expect(loaded('/node_modules/jose/dist/webapi/jws/'), "jose's signatures").to.deep.equal([]);
      // The SDK is one bundle (packages/mcp-sdk, made by `npm run build`), not ~180 files of the SDK and zod.
      expect(loaded('/dist/packages/mcp-sdk/server/index.js'), "the SDK's server, bundled").to.have.length(1);
      for (const pkg of ['@modelcontextprotocol/sdk/', 'zod/', 'zod-to-json-schema/'])
        expect(loaded(`/node_modules/${pkg}`), `${pkg} by name, beside the bundle`).to.deep.equal([]);
      // Without a legacy SSE client, an SSE upstream or an upstream sign-in: none of the SDK's code for them.
      for (const file of ['server/sse.js', 'client/sse.js', 'client/auth.js']) expect(loaded(`/dist/packages/mcp-sdk/${file}`), file).to.deep.equal([]);
      for (const pkg of ['eventsource', 'pkce-challenge', 'raw-body']) expect(loaded(`/node_modules/${pkg}/`), pkg).to.deep.equal([]);
    } finally {
      await rm(out, { force: true });
    }
  });

  it('with workflows switched off, none of the template engine: events read durations from their own module', async () => {
    const out = join(tmpdir(), `switchboard-modules-${process.pid}-${Date.now()}-nowf.txt`);
    const files = { 'config.yaml': 'plugins:\n  workflows:\n    enabled: false\n', 'mcpservers/test.yaml': stdioServer('test', TEST_SERVER) };
    const sb = await startSwitchboard(files, { env: recordModules(out) });
    try {
      await sb.stop();
      const { modules } = await loadedModules(out);
      const gotpl = modules.filter((m) => m.includes('/dist/packages/gotpl/'));
      expect(gotpl.map((m) => m.replace(/.*\/dist\/packages\/gotpl\//, ''))).to.deep.equal(['src/sprig/duration.js']);
      expect(modules.some((m) => m.includes('/dist/plugins/events/'))).to.equal(true);
      expect(modules.some((m) => m.includes('/dist/plugins/workflows/'))).to.equal(false);
    } finally {
      await rm(out, { force: true });
    }
  });
});
