/**
 * plugins/upstreams/secret-rotation.ts on real files: what a renewed reference leads to for
 * each kind of server, and what it never does (act on an unreadable or empty value).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { McpServerDefinition } from '../../kernel/index.js';
import { resolvedSecrets } from '../../plugins/upstreams/resolved-secrets.js';
import { hasReferences, SecretRotation } from '../../plugins/upstreams/secret-rotation.js';

function server(fields: Partial<McpServerDefinition>): McpServerDefinition {
  return { name: 's', type: 'streamable-http', url: 'http://127.0.0.1:1/mcp', env: {}, headers: {}, ...fields } as McpServerDefinition;
}

describe('SecretRotation', () => {
  let dir: string;
  const secrets: string[] = [];
  const heard = (value: string) => secrets.push(value);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-rotation-'));
    secrets.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A rotation that made its connection with what `def` resolves to now; the live headers it handed the transport. */
  function made(def: McpServerDefinition, live = true): { rotation: SecretRotation; headers: Record<string, string> } {
    const resolved = resolvedSecrets(def, dir, () => undefined);
    const rotation = new SecretRotation();
    const headers = { ...resolved.headers };
    rotation.madeWith(resolved, live ? headers : undefined);
    return { rotation, headers };
  }

  it('knows which definitions have anything to read again', () => {
    expect(hasReferences(server({ headers: { Authorization: 'Bearer literal' } }))).to.equal(false);
    expect(hasReferences(server({ headers: { Authorization: { fromFile: 'token' } } }))).to.equal(true);
    expect(hasReferences(server({ env: { KEY: 'x-${KEY}' } }))).to.equal(true);
  });

  it('updates the live headers of a connected streamable-HTTP server in place, and hears the new value as a secret first', async () => {
    await writeFile(join(dir, 'token'), 'Bearer one\n');
    const def = server({ headers: { Authorization: { fromFile: 'token' }, 'X-Fixed': 'yes' } });
    const { rotation, headers } = made(def);
    expect(rotation.look(def, dir, true, heard)).to.deep.equal({ kind: 'same' });
    await writeFile(join(dir, 'token'), 'Bearer two\n');
    const found = rotation.look(def, dir, true, heard);
    expect(found.kind).to.equal('headers');
    if (found.kind !== 'headers') return;
    expect(found.fields).to.deep.equal(['headers.Authorization']);
    expect(secrets).to.include('Bearer two');
    expect(headers.Authorization).to.equal('Bearer one');
    found.apply();
    expect(headers).to.deep.equal({ Authorization: 'Bearer two', 'X-Fixed': 'yes' });
    expect(rotation.look(def, dir, true, heard)).to.deep.equal({ kind: 'same' });
  });

  it('connects again what reads its value once: an environment, an SSE transport, a server not connected', async () => {
    await writeFile(join(dir, 'secrets.env'), 'KEY=one\n');
    const stdio = server({ type: 'stdio', command: 'node', url: undefined, env: { KEY: '${KEY}' } });
    const stdioRotation = made(stdio, false).rotation;
    await writeFile(join(dir, 'secrets.env'), 'KEY=two\n');
    expect(stdioRotation.look(stdio, dir, true, heard)).to.deep.equal({ kind: 'reconnect', fields: ['env.KEY'] });

    await writeFile(join(dir, 'token'), 'one');
    const sse = server({ type: 'sse', headers: { Authorization: { fromFile: 'token' } } });
    const sseRotation = made(sse, false).rotation;
    const http = server({ headers: { Authorization: { fromFile: 'token' } } });
    const waiting = made(http).rotation;
    await writeFile(join(dir, 'token'), 'two');
    expect(sseRotation.look(sse, dir, true, heard)).to.deep.equal({ kind: 'reconnect', fields: ['headers.Authorization'] });
    // auth_required after a 401: not connected, so nothing reads the live headers.
    expect(waiting.look(http, dir, false, heard)).to.deep.equal({ kind: 'reconnect', fields: ['headers.Authorization'] });
  });

  it('connects a server that failed for want of a file once the file is there, and not before', async () => {
    const def = server({ headers: { Authorization: { fromFile: 'token' } } });
    const rotation = new SecretRotation();
    rotation.unresolved();
    expect(rotation.look(def, dir, false, heard)).to.deep.equal({ kind: 'unresolved' });
    await writeFile(join(dir, 'token'), 'Bearer here');
    expect(rotation.look(def, dir, false, heard)).to.deep.equal({ kind: 'reconnect', fields: ['headers.Authorization'] });
  });

  it('keeps the value in use when one turns empty, saying so once, and never hears an empty secret', async () => {
    await writeFile(join(dir, 'token'), 'Bearer one');
    const def = server({ headers: { Authorization: { fromFile: 'token' } } });
    const { rotation } = made(def);
    await writeFile(join(dir, 'token'), '');
    expect(rotation.look(def, dir, true, heard)).to.deep.equal({ kind: 'empty', fields: ['headers.Authorization'] });
    expect(rotation.look(def, dir, true, heard)).to.deep.equal({ kind: 'empty', fields: [] });
    expect(secrets).to.deep.equal([]);
    await rm(join(dir, 'token'));
    expect(rotation.look(def, dir, true, heard)).to.deep.equal({ kind: 'unresolved' });
  });
});
