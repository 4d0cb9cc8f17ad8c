/**
 * oidc-provider keeps its models (sessions, codes, tokens, grants, registered clients)
 * through an Adapter; this one writes them to the sealed GrantStore. The model name is the
 * record kind; grant id, interaction uid and user code are the secondary keys.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { SealedStore } from '../../lib/grants/sealed-store.js';
import { CLIENT, CLIENT_INDEX, type ClientLedger } from './client-ledger.js';
import { tokenDigest, type Revocation } from './verified-tokens.js';

const GRANT_ID = 'grantId';
/**
 * Records outlive their expiry by this much, so a client presenting a token that just
 * lapsed hears "expired" rather than "unknown" (oidc-provider checks expiry itself).
 */
const KEEP_EXPIRED_SECONDS = 15 * 60;
const UID = 'uid';
const USER_CODE = 'userCode';

/** The model whose records are access tokens (an opaque token's id is the token itself). */
const ACCESS_TOKEN = 'AccessToken';
const GRANT = 'Grant';

/**
 * `revoked` hears every access token deleted before its expiry and every grant revoked, after
 * the records are gone, so the replicas' caches of verified tokens drop their copies.
 * `clients` bounds registered clients: a registered client is stored with its expiry while
 * unused, and each grant saved moves its client's expiry past the grant's end.
 * `configured` answers for the clients the configuration defines (broker clients), before the
 * store: read at each lookup, so a renewed secret is taken without a restart.
 */
export function providerAdapter(
  store: SealedStore,
  now: () => number,
  revoked: (revocation: Revocation) => Promise<void> = () => Promise.resolve(),
  clients?: ClientLedger,
  configured?: (id: string) => Promise<AdapterPayload | undefined>,
): AdapterFactory {
  return (model: string): Adapter => {
    const byIndex = async (key: string, value: string): Promise<AdapterPayload | undefined> =>
      (await store.findBy<AdapterPayload>(model, key, value))[0]?.record.payload;
    return {
      async upsert(id, payload, expiresIn) {
        if (model === CLIENT && clients) {
          await store.put(model, id, { payload, expiresAt: clients.registered(id), index: { [CLIENT_INDEX.key]: CLIENT_INDEX.value } });
          return;
        }
        if (model === GRANT && clients && payload.clientId && expiresIn) await clients.granted(payload.clientId, Math.floor(now()) + expiresIn);
        const index: Record<string, string> = {};
        if (payload.grantId) index[GRANT_ID] = payload.grantId;
        if (payload.uid) index[UID] = payload.uid;
        if (payload.userCode) index[USER_CODE] = payload.userCode;
        await store.put(model, id, { payload, ...(expiresIn ? { expiresAt: Math.floor(now()) + expiresIn + KEEP_EXPIRED_SECONDS } : {}), index });
      },
      async find(id) {
        const own = model === CLIENT ? await configured?.(id) : undefined;
        return own ?? (await store.get<AdapterPayload>(model, id))?.payload;
      },
      findByUid: (uid) => byIndex(UID, uid),
      findByUserCode: (code) => byIndex(USER_CODE, code),
      async consume(id) {
        const record = await store.get<AdapterPayload>(model, id);
        if (!record) return;
        const indexOf = (p: AdapterPayload): Record<string, string> => ({
          ...(p.grantId ? { [GRANT_ID]: p.grantId } : {}),
          ...(p.uid ? { [UID]: p.uid } : {}),
        });
        await store.put(model, id, {
          payload: { ...record.payload, consumed: Math.floor(now()) },
          ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
          index: indexOf(record.payload),
        });
      },
      async destroy(id) {
        await store.delete(model, id);
        if (model === ACCESS_TOKEN) await revoked({ kind: 'token', digest: tokenDigest(id) });
      },
      async revokeByGrantId(grantId) {
        for (const { storedKey } of await store.findBy(model, GRANT_ID, grantId)) await store.deleteStored(model, storedKey);
        // oidc-provider revokes a grant model by model; the access tokens' turn is the one that matters to the caches.
        if (model === ACCESS_TOKEN) await revoked({ kind: 'grant', grantId });
      },
    };
  };
}
