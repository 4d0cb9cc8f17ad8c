/**
 * The kernel's principal, resource and context as a Cedar request: two entities (the principal
 * with its groups and roles as parents, the resource with its attributes and tags) and the
 * context record, shaped as schema.cedarschema says. Entities are made once per principal and
 * per resource object (the kernel keeps both per session and per catalogue entry), so a
 * decision builds only the small request around them.
 */
import type { Context, EntityJson, EntityUidJson, TypeAndId } from '@cedar-policy/cedar-wasm/nodejs';
import type { Action, DecisionContext, Principal, Resource } from '../../kernel/contracts/authorization.js';

export interface CedarRequestParts {
  principal: TypeAndId;
  action: TypeAndId;
  resource: TypeAndId;
  context: Context;
  entities: EntityJson[];
}

const ADMIN_ROLE: EntityUidJson = { type: 'Role', id: 'admin' };
const ACTIONS: Record<Action, TypeAndId> = {
  call: { type: 'Action', id: 'call' },
  admin: { type: 'Action', id: 'admin' },
  read: { type: 'Action', id: 'read' },
  signIn: { type: 'Action', id: 'signIn' },
};

const principalEntities = new WeakMap<Principal, EntityJson>();
const resourceEntities = new WeakMap<Resource, EntityJson>();

export function principalEntity(p: Principal): EntityJson {
  let entity = principalEntities.get(p);
  if (entity) return entity;
  switch (p.kind) {
    case 'person': {
      const parents: EntityUidJson[] = p.groups.map((g) => ({ type: 'Group', id: g }));
      if (p.admin) parents.push(ADMIN_ROLE);
      entity = {
        uid: { type: 'Person', id: p.subject },
        attrs: { key: p.key, subject: p.subject, ...(p.email !== undefined ? { email: p.email } : {}) },
        parents,
      };
      break;
    }
    case 'local':
      entity = { uid: { type: 'Local', id: 'local' }, attrs: { key: p.key }, parents: [ADMIN_ROLE] };
      break;
    case 'anonymous':
      // Never an administrator, whatever its flag says: only authorization.admins and the local caller are.
      entity = { uid: { type: 'Anonymous', id: p.address }, attrs: { key: p.key, address: p.address }, parents: [] };
      break;
  }
  principalEntities.set(p, entity);
  return entity;
}

function owned(owner: string | undefined): Record<string, string> {
  return owner !== undefined ? { owner } : {};
}

function makeResourceEntity(r: Resource): EntityJson {
  switch (r.type) {
    case 'tool': {
      const a = r.annotations;
      return {
        uid: { type: 'Tool', id: r.name },
        attrs: {
          kind: r.kind,
          ...(r.server !== undefined ? { server: r.server } : {}),
          readOnly: a?.readOnlyHint === true,
          destructive: a?.destructiveHint === true,
          idempotent: a?.idempotentHint === true,
          openWorld: a?.openWorldHint === true,
          ...(r.operation ? { operation: `${r.operation.resource}:${r.operation.operation}` } : {}),
        },
        parents: [],
        tags: { ...r.labels },
      };
    }
    case 'server':
      return {
        uid: { type: 'Server', id: r.name },
        attrs: { ...owned(r.owner), ...(r.serverType !== undefined ? { type: r.serverType } : {}), ...(r.command !== undefined ? { command: r.command } : {}) },
        parents: [],
      };
    case 'workflow':
      return { uid: { type: 'Workflow', id: r.name }, attrs: owned(r.owner), parents: [] };
    case 'execution':
      return { uid: { type: 'Execution', id: r.id }, attrs: { ...owned(r.owner), workflow: r.workflow }, parents: [] };
    case 'events':
      return { uid: { type: 'Events', id: r.name }, attrs: {}, parents: [] };
    case 'config':
      return { uid: { type: 'Config', id: r.name }, attrs: {}, parents: [] };
    case 'admin-ui':
      return { uid: { type: 'AdminUi', id: r.name }, attrs: {}, parents: [] };
  }
}

export function resourceEntity(r: Resource): EntityJson {
  let entity = resourceEntities.get(r);
  if (!entity) {
    entity = makeResourceEntity(r);
    resourceEntities.set(r, entity);
  }
  return entity;
}

function uidOf(entity: EntityJson): TypeAndId {
  return entity.uid as TypeAndId;
}

export function cedarRequest(principal: Principal, action: Action, resource: Resource, context: DecisionContext): CedarRequestParts {
  const p = principalEntity(principal);
  const r = resourceEntity(resource);
  return {
    principal: uidOf(p),
    action: ACTIONS[action],
    resource: uidOf(r),
    context: {
      transport: context.transport ?? 'unknown',
      writesAsCaller: context.writesAsCaller === true,
      ...(context.operation !== undefined ? { operation: context.operation } : {}),
    },
    entities: [p, r],
  };
}
