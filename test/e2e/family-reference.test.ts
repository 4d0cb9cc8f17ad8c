/**
 * reference-behaviour.md §9, through the protocol: how a family groups its members' tools,
 * where it falls back to the members' own names, and how a call is routed (with the words
 * clients match on). The members are family-member.js servers, each given the tools it needs
 * to differ from the others in exactly one way.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import {
  callTool,
  connectHttp,
  connectHttpWithHeaders,
  errorCode,
  eventually,
  meta,
  ROOT,
  startSwitchboard,
  stdioServer,
  text,
  type Running,
} from '../support/harness.js';

type Obj = Record<string, unknown>;
type Described = { name: string; description: string; inputSchema: Obj };

const MEMBER = join(ROOT, 'dist/test/fixtures/family-member.js');
const tool = (name: string, description: string, properties: Obj = {}, required?: string[]) => ({
  name,
  description,
  properties,
  ...(required ? { required } : {}),
});
const STRING = { type: 'string' };

/** A family member offering `tools`; `more` is extra YAML (toolPrefix, another family). */
const member = (name: string, tools: Obj[], family = 'family: { name: db, instanceArg: region }\n', more = '') =>
  stdioServer(name, MEMBER, ['--name', name, '--tools', JSON.stringify(tools)], `${family}${more}`);

const QUERY = tool('query', 'Run SQL', { sql: STRING });
const STATUS = tool('db_status', 'Say how the database is');

const FILES = {
  // db-eu sorts first: its schemas are the family's.
  'mcpservers/db-eu.yaml': member('db-eu', [
    QUERY,
    STATUS,
    tool('explain', 'Explain a query'),
    tool('tables', 'List tables', { schema: STRING }, ['schema']),
    tool('flagged', 'Has its own region', { region: STRING }),
    tool('only_eu', 'Only in Europe', { note: STRING }),
  ]),
  'mcpservers/db-us.yaml': member(
    'db-us',
    [
      QUERY,
      STATUS,
      tool('explain', 'Explain a query plan'),
      tool('tables', 'List tables', { schema: STRING, limit: { type: 'number' } }),
      tool('flagged', 'Has its own region'),
    ],
    undefined,
    'toolPrefix: us\n',
  ),
  // Members that disagree on the instance argument: the whole family keeps member names.
  'mcpservers/g1.yaml': member('g1', [tool('ping', 'Answer pong')], 'family: { name: grid, instanceArg: node }\n'),
  'mcpservers/g2.yaml': member('g2', [tool('ping', 'Answer pong')], 'family: { name: grid, instanceArg: zone }\n'),
  'workflows/eu_note.yaml':
    'apiVersion: switchboard.dev/v1alpha1\nkind: Workflow\nmetadata: { name: eu_note }\nspec:\n  steps:\n    - { id: s, tool: x_db_only_eu, args: { region: db-eu, note: hi }, store: true }\n',
};

describe('families as the reference groups, falls back and routes them (reference-behaviour §9)', () => {
  let sb: Running;
  let client: Client;
  const names = async (c: Client = client) => (await meta<{ tools: { name: string }[] }>(c, 'list_tools', { limit: 500 })).tools.map((t) => t.name);
  const describeTool = (name: string) => meta<Described>(client, 'describe_tool', { name });
  const core = <T = Obj>(name: string, args: Obj = {}) => meta<T>(client, 'call_tool', { name, arguments: args });
  const refusedWith = (r: CallToolResult, code: string, words: string) => {
    expect(errorCode(r), text(r)).to.equal(code);
    expect(text(r)).to.include(words);
  };

  before(async () => {
    sb = await startSwitchboard(FILES);
    client = await connectHttp(sb.url);
    await eventually(
      () => names(),
      (n) => n.includes('x_db_query') && n.includes('x_us_explain') && n.includes('x_g2_ping'),
      15_000,
    );
  });

  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  describe('grouping', () => {
    it('shows a shared tool once, with the first member schema, the instance argument and the servers it is available on', async () => {
      const query = await describeTool('x_db_query');
      expect(query.description).to.equal('Run SQL (available on servers: db-eu, db-us)');
      expect(query.inputSchema).to.deep.equal({
        type: 'object',
        required: ['region'],
        properties: {
          sql: { type: 'string' },
          region: { type: 'string', enum: ['db-eu', 'db-us'], description: 'Target instance to execute this tool on. Available: db-eu, db-us' },
        },
      });
    });

    it('does not double the prefix of a tool already named after the family', async () => {
      const listed = await names();
      expect(listed).to.include('x_db_status').and.not.include('x_db_db_status');
      expect((await describeTool('x_db_status')).description).to.equal('Say how the database is (available on servers: db-eu, db-us)');
    });

    it('groups a tool only one member has, with a one-value enum', async () => {
      const only = await describeTool('x_db_only_eu');
      expect(only.description).to.equal('Only in Europe (available on servers: db-eu)');
      expect((only.inputSchema.properties as Record<string, Obj>).region).to.deep.include({ enum: ['db-eu'] });
    });

    it('groups a tool whose schemas differ but whose descriptions match, under the first member schema', async () => {
      const tables = await describeTool('x_db_tables');
      expect(Object.keys(tables.inputSchema.properties as Obj)).to.deep.equal(['schema', 'region']);
      expect(tables.inputSchema.required).to.deep.equal(['schema', 'region']);
      // Each member checks its own arguments: db-us takes a limit db-eu's schema does not name.
      expect(text(await callTool(client, 'x_db_tables', { region: 'db-us', schema: 'public', limit: 5 }))).to.equal(
        'tables on db-us: {"schema":"public","limit":5}',
      );
    });
  });

  describe('fallbacks', () => {
    it('a tool the members describe differently keeps every member name, with its toolPrefix; the family name is not found', async () => {
      const listed = await names();
      expect(listed).to.include.members(['x_db-eu_explain', 'x_us_explain']).and.not.include('x_db_explain');
      expect((await describeTool('x_us_explain')).description).to.equal('Explain a query plan');
      expect(text(await callTool(client, 'x_db-eu_explain'))).to.equal('explain on db-eu: {}');
      refusedWith(await callTool(client, 'x_db_explain', { region: 'db-eu' }), 'TOOL_NOT_FOUND', 'tool not found: x_db_explain');
    });

    it('a tool any member already has an argument named like instanceArg for falls back for every member', async () => {
      const listed = await names();
      expect(listed).to.include.members(['x_db-eu_flagged', 'x_us_flagged']).and.not.include('x_db_flagged');
      expect(text(await callTool(client, 'x_db-eu_flagged', { region: 'mine' }))).to.equal('flagged on db-eu: {"region":"mine"}');
      refusedWith(await callTool(client, 'x_db_flagged', { region: 'db-us' }), 'TOOL_NOT_FOUND', 'tool not found: x_db_flagged');
    });

    it('members that declare different instanceArgs: the whole family keeps member names', async () => {
      const listed = await names();
      expect(listed).to.include.members(['x_g1_ping', 'x_g2_ping']).and.not.include('x_grid_ping');
      expect(text(await callTool(client, 'x_g2_ping'))).to.equal('ping on g2: {}');
      refusedWith(await callTool(client, 'x_grid_ping', { node: 'g1' }), 'TOOL_NOT_FOUND', 'tool not found: x_grid_ping');
      const g1 = await core<{ metadata: { family: { refused: { tool: string; reason: string }[] } } }>('core_service_status', { name: 'g1' });
      expect(g1.metadata.family.refused).to.deep.equal([
        { tool: '*', reason: "the members of family 'grid' declare different instanceArgs (node, zone); every member keeps its own tool names" },
      ]);
    });

    it('metadata.family.refused lists, per member, the tools that fell back to member names and why', async () => {
      const status = await core<{ metadata: { family: { name: string; refused: { tool: string; reason: string }[] } } }>('core_service_status', {
        name: 'db-us',
      });
      expect(status.metadata.family.refused).to.deep.equal([
        { tool: 'explain', reason: "the members describe tool 'explain' differently" },
        { tool: 'flagged', reason: "tool 'flagged' already has an argument named 'region', the family's instance argument, on db-eu" },
      ]);
      await sb.waitForLog(
        /\[switchboard:upstreams:db-us\] not joining family 'db': the members describe tool 'explain' differently; listed under the member's own name instead/,
      );
    });

    it('toolset rules apply to whichever names are exposed', async () => {
      const { client: scoped, setHeaders } = await connectHttpWithHeaders(sb.url);
      try {
        setHeaders({ 'X-Service-Toolset': 'server:db-us' });
        const us = await names(scoped);
        expect(us).to.include.members(['x_db_query', 'x_us_explain', 'x_us_flagged']);
        expect(us).to.not.include.members(['x_db_only_eu', 'x_db-eu_explain']);
        setHeaders({ 'X-Service-Toolset': 'tool:x_db-eu_explain' });
        expect(await names(scoped)).to.deep.equal(['x_db-eu_explain']);
      } finally {
        await scoped.close();
      }
    });
  });

  describe('routing', () => {
    it('strips the instance argument and calls that member', async () => {
      expect(text(await callTool(client, 'x_db_query', { region: 'db-us', sql: 'select 1' }))).to.equal('query on db-us: {"sql":"select 1"}');
      expect(text(await callTool(client, 'x_db_query', { sql: 'select 2', region: 'db-eu' }))).to.equal('query on db-eu: {"sql":"select 2"}');
    });

    it('a call without the instance argument names the family servers and the parameter', async () => {
      refusedWith(
        await callTool(client, 'x_db_query', { sql: 'select 1' }),
        'INVALID_ARGUMENTS',
        'tool x_db_query is provided by a family on servers db-eu, db-us; the "region" parameter is required',
      );
    });

    it('a value naming no provider (a typo, a member without the tool) lists the survivors instead of an enum message', async () => {
      const typo = await callTool(client, 'x_db_query', { region: 'db-xx', sql: 'select 1' });
      refusedWith(typo, 'INVALID_ARGUMENTS', 'tool x_db_query is not available on server "db-xx" (available: db-eu, db-us)');
      expect(text(typo)).to.not.include('must be one of');
      refusedWith(
        await callTool(client, 'x_db_only_eu', { region: 'db-us' }),
        'INVALID_ARGUMENTS',
        'tool x_db_only_eu is not available on server "db-us" (available: db-eu)',
      );
      // Not a string at all: the same check, the value as JSON.
      refusedWith(await callTool(client, 'x_db_query', { region: 7 }), 'INVALID_ARGUMENTS', 'is not available on server "7" (available: db-eu, db-us)');
      // A hostile value is echoed escaped and cut: it cannot forge the list of servers or flood the answer.
      const forged = await callTool(client, 'x_db_query', { region: `db-eu" (available: evil)\n${'x'.repeat(5_000)}` });
      refusedWith(forged, 'INVALID_ARGUMENTS', 'is not available on server "db-eu\\" (available: evil)\\nxxxx');
      expect(text(forged)).to.have.length.below(300).and.include('xxx…" (available: db-eu, db-us)');
    });

    it('a workflow step may call a family tool', async () => {
      const r = await callTool(client, 'workflow_eu_note');
      expect(r.isError, text(r)).to.not.equal(true);
      const doc = JSON.parse(text(r)) as { status: string; steps: Obj[] };
      expect(doc.status).to.equal('completed');
      expect(doc.steps).to.deep.include({ id: 's', tool: 'x_db_only_eu', status: 'completed', result: 'only_eu on db-eu: {"note":"hi"}' });
    });

    it('a stopped member leaves the provider set at once; when the last provider is gone the tool and the workflows using it go', async () => {
      await core('core_service_stop', { name: 'db-us' });
      expect((await describeTool('x_db_query')).description).to.equal('Run SQL (available on servers: db-eu)');
      refusedWith(
        await callTool(client, 'x_db_query', { region: 'db-us', sql: 'select 1' }),
        'INVALID_ARGUMENTS',
        'tool x_db_query is not available on server "db-us" (available: db-eu)',
      );
      // A stopped member's own names say why they are gone.
      refusedWith(
        await callTool(client, 'x_us_explain'),
        'SERVER_UNAVAILABLE',
        'server not found: db-us (stopped; start it with core_service_start {"name":"db-us"})',
      );
      // With one member left, explain no longer differs: it is grouped again.
      expect(await names())
        .to.include('x_db_explain')
        .and.not.include('x_db-eu_explain');

      await core('core_service_stop', { name: 'db-eu' });
      const listed = await names();
      expect(listed.filter((n) => n.startsWith('x_db'))).to.deep.equal([]);
      refusedWith(await callTool(client, 'x_db_query', { region: 'db-eu', sql: 'select 1' }), 'TOOL_NOT_FOUND', 'tool not found: x_db_query');
      refusedWith(await callTool(client, 'workflow_eu_note'), 'WORKFLOW_UNAVAILABLE', 'missing required tools: x_db_only_eu');

      await core('core_service_start', { name: 'db-eu' });
      await eventually(
        () => callTool(client, 'workflow_eu_note'),
        (r) => r.isError !== true,
        10_000,
      );
    });
  });
});
