/**
 * The MCP conformance suite's "client" for the auth scenarios: Switchboard's OAuth client,
 * driven the way a person would. `conformance client --command "node oauth-client.js"`
 * appends the URL of its protected test server; this starts a Switchboard that aggregates
 * that server, asks core_auth_login for the sign-in link, follows it like a browser (the
 * suite's authorization server approves at once), then lists and calls the server's tools.
 *
 * Switchboard runs with a public https base URL, as it would behind a TLS proxy, so client
 * metadata documents apply; this driver is that proxy for the browser (it maps the public
 * URL onto the local listener). Pre-registered credentials (MCP_CONFORMANCE_CONTEXT) go into
 * oauth.mcpClient.clients for the authorization server the test server names.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// The SDK as Switchboard itself loads it, bundled (packages/mcp-sdk), and no harness: this
// driver starts once per scenario, 26 times beside the paired pass.
import { Client } from '#mcp-sdk/client/index.js';
import { StreamableHTTPClientTransport } from '#mcp-sdk/client/streamableHttp.js';

const CLI = fileURLToPath(new URL('../../../bin/switchboard.js', import.meta.url));

const PUBLIC = 'https://switchboard.conformance.invalid';
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const serverUrl = process.argv[process.argv.length - 1]!;
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };

async function authorizationServerOf(url: string): Promise<string | undefined> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
  const metadata =
    /resource_metadata="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1] ??
    `${new URL(url).origin}/.well-known/oauth-protected-resource${new URL(url).pathname}`;
  const prm = (await (await fetch(metadata)).json()) as { authorization_servers?: string[] };
  return prm.authorization_servers?.[0];
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-conformance-'));
  await mkdir(join(dir, 'mcpservers'));
  let clients = '';
  if (context.client_id) {
    const issuer = await authorizationServerOf(serverUrl);
    clients = `    clients:\n      - issuer: ${JSON.stringify(issuer)}\n        clientId: ${JSON.stringify(context.client_id)}\n${context.client_secret ? `        clientSecret: ${JSON.stringify(context.client_secret)}\n` : ''}`;
  }
  await writeFile(
    join(dir, 'config.yaml'),
    `oauth:\n  mcpClient:\n    enabled: true\n    allowPrivateIP: true\n    baseUrl: ${PUBLIC}\n    clientMetadataUrl: ${CLIENT_METADATA_URL}\n${clients}`,
  );
  await writeFile(join(dir, 'mcpservers/target.yaml'), `name: target\ntype: streamable-http\nurl: ${JSON.stringify(serverUrl)}\n`);
  const proc = spawn(process.execPath, [CLI, 'serve', '--config-path', dir, '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const local = await new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      log += b.toString();
      const m = /listening on (http:\/\/[^ \n]+)\/mcp/.exec(log);
      if (m && log.includes('ready:')) resolve(m[1]!);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.once('exit', () => reject(new Error(`switchboard exited:\n${log}`)));
  });
  const client = new Client({ name: 'conformance-driver', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${local}/mcp`)));
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name: 'call_tool', arguments: { name, arguments: args } });
      return r.structuredContent as Record<string, unknown>;
    };
    const list = () =>
      client
        .callTool({ name: 'list_tools', arguments: { limit: 500 } })
        .then((r) => r.structuredContent as { tools: { name: string; server?: string }[]; servers_requiring_auth: { name: string }[] });
    for (let i = 0; i < 100 && !(await list()).servers_requiring_auth.some((s) => s.name === 'target'); i++) await new Promise((r) => setTimeout(r, 100));
    const signIn = async () => {
      const login = await call('core_auth_login', { server: 'target' });
      if (typeof login.sign_in_url !== 'string') throw new Error(`no sign-in link: ${JSON.stringify(login)}`);
      // The browser: follow redirects, with the public URL served by the local listener.
      let url = login.sign_in_url.replace(PUBLIC, local);
      for (let hop = 0; hop < 20; hop++) {
        const res = await fetch(url, { redirect: 'manual' });
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          url = new URL(location, url).href.replace(PUBLIC, local);
          continue;
        }
        if (res.status !== 200) throw new Error(`sign-in stopped at ${url} with ${res.status}: ${await res.text()}`);
        return;
      }
    };
    await signIn();
    const tools = (await list()).tools.filter((t) => t.server === 'target');
    if (tools.length === 0) throw new Error('signed in, but the server lists no tools');
    const first = tools[0]!;
    const run = () => client.callTool({ name: 'call_tool', arguments: { name: first.name, arguments: {} } });
    let result = await run();
    // A step-up: the server wants more scope for this call; the agent signs in again, as told.
    if ((result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code === 'AUTH_REQUIRED') {
      await signIn();
      result = await run();
    }
    process.stdout.write(`signed in; ${tools.length} tools; ${first.name} -> ${JSON.stringify(result.content).slice(0, 200)}\n`);
  } finally {
    await client.close().catch(() => undefined);
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    if (process.env.SWITCHBOARD_CONFORMANCE_LOGS) process.stderr.write(log);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
