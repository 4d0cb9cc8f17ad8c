/**
 * The Cedar authorizer without a server: its baseline agrees with the built-in roles on every
 * principal, action and resource combination; the entities it builds match the schema it
 * ships; operator policies deny naming the policy with file and line; invalid policies are
 * refused with file and line; default deny without the baseline; a forbid that fails to
 * evaluate denies.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { checkParseEntities } from '@cedar-policy/cedar-wasm/nodejs';
import type { Action, DecisionContext, Principal, Resource } from '../../kernel/contracts/authorization.js';
import type { ToolKind } from '../../kernel/tools.js';
import { builtInRoles } from '../../plugins/authorization/roles.js';
import { shippedPolicies } from '../../plugins/authorization-cedar/assets.js';
import { CedarAuthorizer } from '../../plugins/authorization-cedar/authorizer.js';
import { compilePolicies, type PolicySource } from '../../plugins/authorization-cedar/compile.js';
import { principalEntity, resourceEntity } from '../../plugins/authorization-cedar/entities.js';
import { policyHeader } from '../../plugins/authorization-cedar/policy-header.js';
import { MAX_POLICY_FILE_BYTES, readPolicyFiles } from '../../plugins/authorization-cedar/policy-files.js';

const person = (subject: string, groups: string[], admin: boolean, email?: string): Principal => ({
  kind: 'person',
  key: `person:${subject}`,
  subject,
  groups,
  admin,
  claims: {},
  ...(email ? { email } : {}),
});

const alice = person('alice', ['platform'], true, 'alice@example.com');
const bob = person('bob', ['apps'], false, 'bob@example.com');
const carol = person('carol', [], false);
const local: Principal = { kind: 'local', key: 'local', admin: true, transport: 'stdio' };
const anonymous: Principal = { kind: 'anonymous', key: 'anonymous:10.0.0.7', admin: false, address: '10.0.0.7' };
const PRINCIPALS = [alice, bob, carol, local, anonymous];

const tool = (name: string, kind: ToolKind, extra: Partial<Extract<Resource, { type: 'tool' }>> = {}): Resource => ({ type: 'tool', name, kind, ...extra });
const RESOURCES: Resource[] = [
  tool('x_memory_read_graph', 'tool', { server: 'memory', annotations: { readOnlyHint: true }, labels: { team: 'data' } }),
  tool('x_memory_delete_entities', 'tool', { server: 'memory', annotations: { destructiveHint: true } }),
  tool('workflow_deploy', 'workflow'),
  tool('core_service_status', 'core'),
  tool('core_mcpserver_create', 'core', { operation: { resource: 'server', operation: 'create' } }),
  tool('core_service_stop', 'core', { operation: { resource: 'server', operation: 'stop' } }),
  tool('core_workflow_create', 'core', { operation: { resource: 'workflow', operation: 'create' } }),
  tool('core_workflow_delete', 'core', { operation: { resource: 'workflow', operation: 'delete' } }),
  tool('core_config_save', 'core', { operation: { resource: 'config', operation: 'save' } }),
  { type: 'server', name: 'memory' },
  { type: 'server', name: 'bobs', owner: 'person:bob', serverType: 'stdio', command: 'npx' },
  { type: 'workflow', name: 'shared' },
  { type: 'workflow', name: 'bobs-flow', owner: 'person:bob' },
  { type: 'workflow', name: 'alices-flow', owner: 'person:alice' },
  { type: 'execution', id: 'e1', workflow: 'bobs-flow', owner: 'person:bob' },
  { type: 'execution', id: 'e2', workflow: 'shared', owner: 'anonymous:10.0.0.7' },
  { type: 'execution', id: 'e3', workflow: 'shared' },
  { type: 'events', name: 'events' },
  { type: 'config', name: 'aggregator' },
  { type: 'admin-ui', name: 'admin-ui' },
];
const ACTIONS: Action[] = ['call', 'admin', 'read', 'signIn'];
const OPERATIONS = [undefined, 'create', 'update', 'delete', 'approve', 'start', 'save', 'view'];

function source(file: string, text: string): PolicySource {
  return { file: `/config/policies/${file}`, label: `policies/${file}`, text, operator: true };
}

function authorizerWith(operator: PolicySource[], baseline = true): CedarAuthorizer {
  const shipped = shippedPolicies();
  const result = compilePolicies(baseline ? [shipped.baseline, ...operator] : operator, shipped.schema);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const authorizer = new CedarAuthorizer();
  authorizer.install(result.set);
  return authorizer;
}

function problemsOf(operator: PolicySource[]) {
  const shipped = shippedPolicies();
  const result = compilePolicies([shipped.baseline, ...operator], shipped.schema);
  expect(result.ok, 'the set should be refused').to.equal(false);
  return result.ok ? [] : result.problems;
}

const ctx = (operation?: string, writesAsCaller = false): DecisionContext => ({
  transport: 'streamable-http',
  ...(operation ? { operation } : {}),
  ...(writesAsCaller ? { writesAsCaller } : {}),
});

describe('authorization-cedar: the baseline', () => {
  const cedar = authorizerWith([]);

  it('agrees with the built-in roles on every principal, action, resource, operation and writes-as-caller', () => {
    let compared = 0;
    const disagreements: string[] = [];
    for (const p of PRINCIPALS) {
      for (const action of ACTIONS) {
        for (const r of RESOURCES) {
          for (const operation of OPERATIONS) {
            for (const writesAsCaller of [false, true]) {
              const expected = builtInRoles.decide(p, action, r, ctx(operation, writesAsCaller));
              const actual = cedar.decide(p, action, r, ctx(operation, writesAsCaller));
              compared++;
              if (expected.allowed !== actual.allowed) {
                const what = `${p.key} ${action}${operation ? `(${operation})` : ''} ${r.type}:${'name' in r ? r.name : r.id}${writesAsCaller ? ' writing as caller' : ''}`;
                disagreements.push(
                  `${what}: roles ${expected.allowed} [${expected.rule}], cedar ${actual.allowed} [${actual.rule}${actual.allowed ? '' : `: ${actual.reason}`}]`,
                );
              }
            }
          }
        }
      }
    }
    expect(disagreements, disagreements.join('\n')).to.deep.equal([]);
    expect(compared).to.equal(PRINCIPALS.length * ACTIONS.length * RESOURCES.length * OPERATIONS.length * 2);
  });

  it('names the baseline policy that decided, and default deny otherwise', () => {
    expect(cedar.decide(alice, 'admin', { type: 'config', name: 'aggregator' }, ctx('save'))).to.deep.equal({ allowed: true, rule: 'baseline:admin' });
    expect(cedar.decide(bob, 'admin', { type: 'workflow', name: 'f' }, ctx('create'))).to.deep.equal({ allowed: true, rule: 'baseline:workflow-create' });
    expect(cedar.decide(bob, 'read', { type: 'events', name: 'events' }, ctx())).to.deep.equal({
      allowed: false,
      rule: 'cedar:default-deny',
      reason: 'no policy permits it',
    });
  });

  it('builds entities that conform to the schema it ships', () => {
    const { schema } = shippedPolicies();
    for (const p of PRINCIPALS) {
      const answer = checkParseEntities({ entities: [principalEntity(p)], schema });
      expect(answer, p.key).to.deep.equal({ type: 'success' });
    }
    for (const r of RESOURCES) {
      const answer = checkParseEntities({ entities: [resourceEntity(r)], schema });
      expect(answer, r.type).to.deep.equal({ type: 'success' });
    }
  });
});

describe('authorization-cedar: operator policies', () => {
  const deny = source(
    'deny.cedar',
    [
      '// The apps group may not delete memory entities.',
      '',
      '@id("apps-no-delete")',
      'forbid (principal in Group::"apps", action == Action::"call", resource == Tool::"x_memory_delete_entities");',
      '',
      'forbid (principal, action == Action::"call", resource)',
      '  when { resource.hasTag("team") && resource.getTag("team") == "data" && !(principal in Role::"admin") };',
    ].join('\n'),
  );
  const cedar = authorizerWith([deny]);
  const deleteTool = RESOURCES[1]!;
  const labelled = RESOURCES[0]!;

  it('forbids what a policy forbids, naming its @id with file and line', () => {
    const d = cedar.decide(bob, 'call', deleteTool, ctx());
    expect(d).to.deep.equal({
      allowed: false,
      rule: 'apps-no-delete (policies/deny.cedar:3)',
      reason: 'forbidden by policy apps-no-delete (policies/deny.cedar:3)',
    });
    expect(cedar.decide(alice, 'call', deleteTool, ctx()).allowed).to.equal(true);
    expect(cedar.decide(carol, 'call', deleteTool, ctx())).to.deep.equal({ allowed: true, rule: 'baseline:call' });
  });

  it('names a policy without @id by its place in the file; labels are tags', () => {
    const d = cedar.decide(carol, 'call', labelled, ctx());
    expect(d).to.include({ allowed: false, rule: 'policy1 (policies/deny.cedar:6)' });
    expect(cedar.decide(alice, 'call', labelled, ctx()).allowed).to.equal(true);
  });

  it("forbid overrides even the administrators' permit", () => {
    const all = authorizerWith([
      source(
        'lock.cedar',
        '@id("no-config-saves")\nforbid (principal, action == Action::"admin", resource is Config) when { context has operation && context.operation == "save" };',
      ),
    ]);
    expect(all.decide(alice, 'admin', { type: 'config', name: 'aggregator' }, ctx('save'))).to.include({
      allowed: false,
      rule: 'no-config-saves (policies/lock.cedar:1)',
    });
    expect(all.decide(alice, 'admin', { type: 'config', name: 'aggregator' }, ctx('update')).allowed).to.equal(true);
  });

  it('without the baseline, only what the operator permits is allowed (default deny)', () => {
    const bare = authorizerWith(
      [source('only.cedar', '@id("read-only-tools")\npermit (principal, action == Action::"call", resource) when { resource.readOnly };')],
      false,
    );
    expect(bare.decide(bob, 'call', labelled, ctx())).to.deep.equal({ allowed: true, rule: 'read-only-tools (policies/only.cedar:1)' });
    expect(bare.decide(bob, 'call', deleteTool, ctx())).to.deep.equal({ allowed: false, rule: 'cedar:default-deny', reason: 'no policy permits it' });
    expect(bare.decide(alice, 'admin', { type: 'config', name: 'aggregator' }, ctx('save')).allowed, 'no baseline: no admin role policy either').to.equal(
      false,
    );
  });

  it('a forbid that fails to evaluate denies, with the error', () => {
    const failing = authorizerWith([
      source('overflow.cedar', '\n@id("overflows")\nforbid (principal, action, resource) when { 9223372036854775807 + 1 == 0 };'),
    ]);
    const d = failing.decide(alice, 'call', labelled, ctx());
    expect(d.allowed).to.equal(false);
    expect(d).to.include({ rule: 'overflows (policies/overflow.cedar:2)' });
    expect(!d.allowed && d.reason).to.match(/could not be evaluated.*overflow/i);
  });

  it('keeps file lines right past ten policies in a file (Cedar lists them sorted as strings)', () => {
    const text = Array.from({ length: 12 }, (_, i) => `@id("p${i}")\nforbid (principal, action == Action::"call", resource == Tool::"t${i}");`).join('\n');
    const many = authorizerWith([source('many.cedar', text)]);
    for (const i of [0, 1, 2, 9, 10, 11]) {
      expect(many.decide(bob, 'call', tool(`t${i}`, 'tool'), ctx()), `t${i}`).to.include({ rule: `p${i} (policies/many.cedar:${2 * i + 1})` });
    }
  });

  it('numbers policies across files as Cedar does', () => {
    const file = (name: string, n: number) =>
      source(
        name,
        Array.from({ length: n }, (_, i) => `@id("${name}-${i}") forbid (principal, action == Action::"call", resource == Tool::"${name}-${i}");`).join('\n'),
      );
    const set = authorizerWith([file('a.cedar', 11), source('empty.cedar', '// nothing yet'), file('b.cedar', 13)]);
    for (const [name, i] of [
      ['a.cedar', 0],
      ['a.cedar', 10],
      ['b.cedar', 0],
      ['b.cedar', 12],
    ] as const) {
      expect(set.decide(bob, 'call', tool(`${name}-${i}`, 'tool'), ctx()), `${name}-${i}`).to.include({ rule: `${name}-${i} (policies/${name}:${i + 1})` });
    }
  });

  it("reads effect and @id from a policy's head", () => {
    expect(policyHeader('@id("a \\"b\\" \\u{e9}")\n@advice("x")\n@flag\n// note\nforbid (principal, action, resource);')).to.deep.equal({
      effect: 'forbid',
      id: 'a "b" é',
    });
    expect(policyHeader('permit(principal, action, resource);')).to.deep.equal({ effect: 'permit' });
    expect(policyHeader('@id(unquoted) permit (principal, action, resource);')).to.equal(undefined);
  });

  it('remembers a decision by request content until the policies change', () => {
    const a = authorizerWith([]);
    const first = a.decide(bob, 'call', tool('x_a_b', 'tool', { server: 'a' }), ctx());
    expect(a.decide(bob, 'call', tool('x_a_b', 'tool', { server: 'a' }), ctx()), 'an equal resource, another object').to.equal(first);
    expect(a.decide(bob, 'call', tool('x_a_b', 'tool', { server: 'a', labels: { team: 'x' } }), ctx())).not.to.equal(first);
    expect(a.decide(carol, 'call', tool('x_a_b', 'tool', { server: 'a' }), ctx())).not.to.equal(first);
    const shipped = shippedPolicies();
    const next = compilePolicies([shipped.baseline, source('x.cedar', 'forbid (principal, action, resource == Tool::"x_a_b");')], shipped.schema);
    if (!next.ok) throw new Error('refused');
    a.install(next.set);
    expect(a.decide(bob, 'call', tool('x_a_b', 'tool', { server: 'a' }), ctx()).allowed).to.equal(false);
  });

  it('each install increases the version', () => {
    const a = authorizerWith([]);
    const before = a.version;
    const shipped = shippedPolicies();
    const again = compilePolicies([shipped.baseline], shipped.schema);
    if (!again.ok) throw new Error('baseline refused');
    a.install(again.set);
    expect(a.version).to.equal(before + 1);
  });
});

describe('authorization-cedar: refusing invalid policies', () => {
  it('a syntax error names file, line and column', () => {
    const problems = problemsOf([source('bad.cedar', '// fine so far: é\npermit (principal, action, resource)\n  when { 1 + };')]);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include({ file: '/config/policies/bad.cedar', line: 3, column: 14 });
    expect(problems[0]!.message).to.match(/unexpected token/);
  });

  it('a policy the schema does not allow names file and line (strict validation)', () => {
    const problems = problemsOf([
      source('ok.cedar', 'permit (principal, action, resource);'),
      source('typo.cedar', '\n\nforbid (principal, action == Action::"call", resource)\n  when { principal.emial == "x" };'),
    ]);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.include({ file: '/config/policies/typo.cedar', line: 4 });
    expect(problems[0]!.message).to.match(/emial/);
    const unguarded = problemsOf([source('tags.cedar', 'forbid (principal, action == Action::"call", resource) when { resource.getTag("team") == "x" };')]);
    expect(unguarded[0]!.message).to.match(/hasTag/);
  });

  it('templates are refused', () => {
    const problems = problemsOf([source('t.cedar', 'permit (principal == ?principal, action, resource);')]);
    expect(problems[0]!.message).to.match(/templates/);
  });

  it('reads *.cedar files in name order, refuses a file over 1 MiB, and an absent directory holds none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cedar-policies-'));
    try {
      await writeFile(join(dir, 'b.cedar'), 'permit (principal, action, resource);');
      await writeFile(join(dir, 'a.cedar'), 'forbid (principal, action, resource);');
      await writeFile(join(dir, 'notes.txt'), 'not a policy');
      await writeFile(join(dir, '.hidden.cedar'), 'garbage');
      const read = await readPolicyFiles(dir, join(dir, '..'));
      expect(read.problems).to.deep.equal([]);
      expect(read.sources.map((s) => s.file)).to.deep.equal([join(dir, 'a.cedar'), join(dir, 'b.cedar')]);
      await writeFile(join(dir, 'huge.cedar'), `// ${'x'.repeat(MAX_POLICY_FILE_BYTES)}`);
      const tooBig = await readPolicyFiles(dir, dir);
      expect(tooBig.problems).to.have.length(1);
      expect(tooBig.problems[0]).to.include({ file: join(dir, 'huge.cedar') });
      expect(tooBig.problems[0]!.message).to.match(/more than the limit of 1048576 bytes/);
      expect(await readPolicyFiles(join(dir, 'absent'), dir)).to.deep.equal({ sources: [], problems: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
