/**
 * What sessions and catalogue entries share instead of holding each their own (issue 37 item
 * 4: memory at 10,000 tools, per open session, under session churn). Each of these was a
 * per-session or per-tool copy on main; the figures are in bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Catalogue } from '../../kernel/catalogue.js';
import { createHooks } from '../../kernel/hooks.js';
import { createLogger } from '../../kernel/log.js';
import { Endpoint } from '../../kernel/mcp/server/endpoint.js';
import { SHARED_SCHEMA_VALIDATOR } from '../../kernel/mcp/server/schema-validator.js';
import { packageRoot } from '../../kernel/paths.js';
import { SessionRegistry } from '../../kernel/sessions.js';
import type { Principal } from '../../kernel/contracts/authorization.js';
import { builtInRoles } from '../../plugins/authorization/roles.js';
import type { UpstreamConnection } from '../../plugins/upstreams/connection.js';
import { toolDefinitions } from '../../plugins/upstreams/tool-definitions.js';

const validatorOf = (server: object): unknown => (server as { _jsonSchemaValidator?: unknown })._jsonSchemaValidator;

describe('footprint: what sessions and catalogue entries share', () => {
  it("every session's SDK Server shares one schema validator, and a closed session leaves the registry", async () => {
    const sessions = new SessionRegistry();
    const endpoint = new Endpoint(createHooks(), new Catalogue(createHooks(), createLogger({ level: 'error' })), sessions, createLogger({ level: 'error' }));
    const opened = await Promise.all([0, 1, 2].map(() => endpoint.connect(InMemoryTransport.createLinkedPair()[1], 'streamable-http')));
    expect(sessions.size).to.equal(3);
    // On main each Server made an Ajv instance of its own: 18 KiB of an open session's 33.
    for (const s of opened) expect(validatorOf(s.server)).to.equal(SHARED_SCHEMA_VALIDATOR);
    await Promise.all(opened.map((s) => s.server.close()));
    expect(sessions.size).to.equal(0);
  });

  it('the shared validator checks as the SDK does and keeps no schema it compiled', () => {
    const schema = () => ({
      $id: 'urn:switchboard:test:person',
      type: 'object' as const,
      properties: { email: { type: 'string' as const, format: 'email' } },
      required: ['email'],
    });
    const first = SHARED_SCHEMA_VALIDATOR.getValidator<{ email: string }>(schema());
    expect(first({ email: 'ann@example.com' })).to.deep.equal({ valid: true, data: { email: 'ann@example.com' }, errorMessage: undefined });
    const bad = first({ email: 'not an address' });
    expect(bad.valid).to.equal(false);
    expect(bad.errorMessage).to.match(/email/);
    // A second schema object with the same $id: Ajv refuses it ("already exists") if the first were kept.
    const second = SHARED_SCHEMA_VALIDATOR.getValidator(schema());
    expect(second({}).valid).to.equal(false);
  });

  it('catalogue entries of one shape share one hidden class (V8 gave each spread-built entry its own)', () => {
    const script = `
      const { Catalogue } = await import(${JSON.stringify(join(packageRoot(), 'dist/kernel/catalogue.js'))});
      const { createHooks } = await import(${JSON.stringify(join(packageRoot(), 'dist/kernel/hooks.js'))});
      const { createLogger } = await import(${JSON.stringify(join(packageRoot(), 'dist/kernel/log.js'))});
      const c = new Catalogue(createHooks(), createLogger({ level: 'error' }));
      const conn = { call: () => Promise.resolve({ content: [] }) };
      c.replaceSource('server:s', Array.from({ length: 500 }, (_, i) => {
        const original = 'tool_' + i;
        return { name: 'x_s_' + original, kind: 'tool', description: 'Tool ' + i + '.', inputSchema: { type: 'object' }, server: 's', originalName: original, invoke: (a) => conn.call(original, a) };
      }));
      const all = c.all();
      let classes = 1;
      for (const e of all) if (!%HaveSameMap(e, all[0])) classes++;
      process.stdout.write(String(classes));
    `;
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).to.equal('');
    expect(Number(r.stdout)).to.equal(1);
  });

  it('the built-in roles answer one shared decision per rule, not an object per tool', () => {
    const local: Principal = { kind: 'local', key: 'local', admin: true, transport: 'streamable-http' };
    const anon: Principal = { kind: 'anonymous', key: 'anonymous:10.0.0.1', admin: false, address: '10.0.0.1' };
    for (const p of [local, anon]) {
      const a = builtInRoles.decide(p, 'call', { type: 'tool', name: 'x_s_a', kind: 'tool' }, {});
      const b = builtInRoles.decide(p, 'call', { type: 'tool', name: 'x_s_b', kind: 'tool' }, {});
      expect(a.allowed).to.equal(true);
      expect(b).to.equal(a);
      expect(Object.isFrozen(a)).to.equal(true);
    }
  });

  it("an upstream's tools with the same hints share one hints object", () => {
    const tools: Tool[] = ['a', 'b', 'c'].map((name) => ({
      name,
      inputSchema: { type: 'object' },
      annotations: { title: `Tool ${name}`, readOnlyHint: name !== 'c' },
    }));
    const conn = { name: 's', def: { name: 's' }, state: 'running', runsToolTasks: false, tools } as unknown as UpstreamConnection;
    const [a, b, c] = toolDefinitions(conn);
    expect(a!.annotations).to.deep.equal({ readOnlyHint: true });
    expect(b!.annotations).to.equal(a!.annotations);
    expect(c!.annotations).to.deep.equal({ readOnlyHint: false });
  });
});
