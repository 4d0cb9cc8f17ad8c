import { expect } from 'chai';
import { isLoopbackAddress, namedAdmin, peerPrincipal, personPrincipal, recordedPrincipal, recordPrincipal } from '../../kernel/authorization/principal.js';
import { builtInRoles } from '../../plugins/authorization/roles.js';
import type { AuthorizationSettings } from '../../kernel/config/settings.js';

const SETTINGS: AuthorizationSettings = { admins: ['group:platform', 'Ops@Example.com', 'sub:root-subject'], groupsClaim: 'groups', policiesPath: 'policies' };

describe('principals: who is asking', () => {
  it('a person carries email and groups from the configured claim, and is an administrator when named', () => {
    const alice = personPrincipal({ subject: 'a1', claims: { email: 'alice@example.com', groups: ['platform', 7] } }, SETTINGS);
    expect(alice).to.include({ kind: 'person', key: 'person:a1', email: 'alice@example.com', admin: true });
    expect(alice.kind === 'person' && alice.groups).to.deep.equal(['platform']);
    const roles = personPrincipal({ subject: 'b1', claims: { realm_roles: 'platform' } }, { ...SETTINGS, groupsClaim: 'realm_roles' });
    expect(roles.admin).to.equal(true);
    const bob = personPrincipal({ subject: 'b2', claims: { email: 'bob@example.com', groups: ['apps'] } }, SETTINGS);
    expect(bob.admin).to.equal(false);
  });

  it('admins entries match a group, an email (any case), a subject; a bare string names a subject only', () => {
    const p = { subject: 'root-subject', email: 'ops@example.com', groups: ['x'] };
    expect(namedAdmin('group:x', p)).to.equal(true);
    expect(namedAdmin('OPS@example.com', p)).to.equal(true);
    expect(namedAdmin('sub:root-subject', p)).to.equal(true);
    expect(namedAdmin('root-subject', p)).to.equal(true);
    expect(namedAdmin('x', p)).to.equal(false);
    expect(namedAdmin('group:root-subject', p)).to.equal(false);
  });

  it('without OAuth a loopback peer (IPv4, mapped, IPv6) or stdio is local; any other address is anonymous', () => {
    for (const a of ['127.0.0.1', '127.3.2.1', '::ffff:127.0.0.1', '::1', undefined])
      expect(peerPrincipal(a, 'streamable-http', '127.0.0.1').kind, String(a)).to.equal('local');
    for (const a of ['10.0.0.5', '::ffff:192.168.1.2', 'fe80::1', '1.2.3.4']) {
      expect(isLoopbackAddress(a)).to.equal(false);
      expect(peerPrincipal(a, 'sse', 'localhost')).to.deep.equal({ kind: 'anonymous', key: `anonymous:${a}`, admin: false, address: a });
    }
  });

  it("on a listener bound beyond loopback every peer is anonymous, a sidecar's 127.0.0.6 included", () => {
    expect(peerPrincipal('127.0.0.6', 'streamable-http', '0.0.0.0')).to.deep.include({ kind: 'anonymous', admin: false });
    expect(peerPrincipal('::1', 'streamable-http', '10.1.2.3').kind).to.equal('anonymous');
  });
});

describe('built-in roles: the default decisions', () => {
  const anon = peerPrincipal('10.0.0.5', 'streamable-http', '0.0.0.0');
  const local = peerPrincipal('127.0.0.1', 'streamable-http', '127.0.0.1');
  const bob = personPrincipal({ subject: 'bob', claims: {} }, SETTINGS);

  it('an anonymous network caller calls tools but writes nothing, reads no events and gets no admin UI', () => {
    expect(builtInRoles.decide(anon, 'call', { type: 'tool', name: 'x_a_b', kind: 'tool', server: 'a' }, {}).allowed).to.equal(true);
    expect(
      builtInRoles.decide(
        anon,
        'call',
        { type: 'tool', name: 'core_workflow_create', kind: 'core', operation: { resource: 'workflow', operation: 'create' } },
        {},
      ).allowed,
    ).to.equal(false);
    expect(builtInRoles.decide(anon, 'admin', { type: 'workflow', name: 'w' }, { operation: 'create' }).allowed).to.equal(false);
    expect(builtInRoles.decide(anon, 'read', { type: 'events', name: 'events' }, {}).allowed).to.equal(false);
    const ui = builtInRoles.decide(anon, 'admin', { type: 'admin-ui', name: 'admin-ui' }, { operation: 'view' });
    expect(ui).to.deep.include({ allowed: false, rule: 'built-in:admins-only' });
    expect(builtInRoles.decide(local, 'admin', { type: 'admin-ui', name: 'admin-ui' }, { operation: 'act' }).allowed).to.equal(true);
  });

  it('executions and workflows belong to their owner', () => {
    expect(builtInRoles.decide(bob, 'read', { type: 'execution', id: 'e', workflow: 'w', owner: 'person:bob' }, {}).allowed).to.equal(true);
    expect(builtInRoles.decide(bob, 'read', { type: 'execution', id: 'e', workflow: 'w', owner: 'person:alice' }, {}).allowed).to.equal(false);
    expect(builtInRoles.decide(bob, 'read', { type: 'execution', id: 'e', workflow: 'w' }, {}).allowed).to.equal(false);
    expect(builtInRoles.decide(bob, 'admin', { type: 'workflow', name: 'w', owner: 'person:bob' }, { operation: 'delete' }).allowed).to.equal(true);
    expect(builtInRoles.decide(bob, 'admin', { type: 'workflow', name: 'w' }, { operation: 'update' }).rule).to.equal('built-in:owner-or-admin');
  });

  it('only administrators approve a workflow, its owner not, even where the orchestrator judges writes', () => {
    const owned = { type: 'workflow', name: 'w', owner: 'person:b2' } as const;
    const bob = personPrincipal({ subject: 'b2', claims: { groups: ['apps'] } }, SETTINGS);
    const alice = personPrincipal({ subject: 'a1', claims: { groups: ['platform'] } }, SETTINGS);
    expect(builtInRoles.decide(bob, 'admin', owned, { operation: 'update' }).allowed).to.equal(true);
    expect(builtInRoles.decide(bob, 'admin', owned, { operation: 'approve' }).rule).to.equal('built-in:admins-only');
    expect(builtInRoles.decide(bob, 'admin', owned, { operation: 'approve', writesAsCaller: true }).allowed).to.equal(false);
    expect(builtInRoles.decide(alice, 'admin', owned, { operation: 'approve' }).allowed).to.equal(true);
  });
});

describe('recorded principals: an author decided on while signed out', () => {
  it('a person is rebuilt from the key and the recorded email and groups; administrator by the admins list in force', () => {
    const signedIn = personPrincipal({ subject: 'a1', claims: { email: 'alice@example.com', groups: ['platform'] } }, SETTINGS);
    const recorded = recordPrincipal(signedIn);
    expect(recorded).to.deep.equal({ email: 'alice@example.com', groups: ['platform'] });
    const later = recordedPrincipal('person:a1', recorded, SETTINGS);
    expect(later).to.deep.include({ kind: 'person', key: 'person:a1', subject: 'a1', email: 'alice@example.com', admin: true });
    // Taken off the admins list: no longer an administrator, at once.
    expect(recordedPrincipal('person:a1', recorded, { ...SETTINGS, admins: [] })?.admin).to.equal(false);
    // Named by subject, with nothing recorded.
    expect(recordedPrincipal('person:root-subject', undefined, SETTINGS)?.admin).to.equal(true);
  });

  it('local and anonymous keys keep their kinds; a key of no known form is undefined', () => {
    expect(recordedPrincipal('local', undefined, SETTINGS)).to.include({ kind: 'local', admin: true });
    expect(recordedPrincipal('anonymous:10.0.0.7', undefined, SETTINGS)).to.include({ kind: 'anonymous', admin: false, address: '10.0.0.7' });
    expect(recordedPrincipal('person:', undefined, SETTINGS)).to.equal(undefined);
    expect(recordedPrincipal('robot:x', undefined, SETTINGS)).to.equal(undefined);
    expect(recordPrincipal(peerPrincipal(undefined, 'stdio', '127.0.0.1'))).to.equal(undefined);
  });
});
