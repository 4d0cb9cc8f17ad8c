/**
 * What an auth plugin hands a GrantStore: ids replaced by their HMAC (a stored access or
 * refresh token id is the token itself, and must not be usable from the store) and values
 * encrypted with AES-256-GCM, the kind and hashed id bound in as associated data so a
 * record cannot be moved to another slot. Keys derive from the configured encryption key
 * (HKDF); memory storage gets a random one per process.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { GrantStore } from '../../kernel/index.js';

export interface SealedRecord<T> {
  payload: T;
  expiresAt?: number;
  index?: Record<string, string>;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealedStore {
  private readonly macKey: Buffer;
  private readonly encKey: Buffer;

  constructor(
    private readonly store: GrantStore,
    secret: string | Buffer,
    /** Told (once per record) when a record cannot be opened: a changed key, a damaged file. */
    private readonly onUnreadable: (kind: string, reason: string) => void = () => undefined,
  ) {
    const ikm = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret;
    this.macKey = Buffer.from(hkdfSync('sha256', ikm, 'switchboard', 'grant-store ids', 32));
    this.encKey = Buffer.from(hkdfSync('sha256', ikm, 'switchboard', 'grant-store values', 32));
  }

  private hashed(kind: string, id: string): string {
    return createHmac('sha256', this.macKey).update(kind).update('\u0000').update(id).digest('base64url');
  }

  private seal(aad: string, value: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  private open(aad: string, sealed: string): unknown {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
  }

  async get<T>(kind: string, id: string): Promise<SealedRecord<T> | undefined> {
    const key = this.hashed(kind, id);
    const record = await this.store.get(kind, key);
    if (!record) return undefined;
    try {
      return { payload: this.open(`${kind}/${key}`, record.value) as T, ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}) };
    } catch (err) {
      this.onUnreadable(kind, (err as Error).message);
      return undefined;
    }
  }

  async put<T>(kind: string, id: string, record: SealedRecord<T>): Promise<void> {
    const key = this.hashed(kind, id);
    await this.store.put(kind, key, {
      value: this.seal(`${kind}/${key}`, record.payload),
      ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
      ...(record.index ? { index: this.hashedIndex(kind, record.index) } : {}),
    });
  }

  /**
   * `record` stored unless a record is already there (GrantStore.create: one winner among
   * replicas creating it at once); returns the payload kept. A kept record that cannot be
   * opened (damaged) is replaced, as `get` followed by `put` would have done.
   */
  async create<T>(kind: string, id: string, record: SealedRecord<T>): Promise<T> {
    const key = this.hashed(kind, id);
    const mine = this.seal(`${kind}/${key}`, record.payload);
    const kept = await this.store.create(kind, key, {
      value: mine,
      ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
      ...(record.index ? { index: this.hashedIndex(kind, record.index) } : {}),
    });
    if (kept.value === mine) return record.payload;
    try {
      return this.open(`${kind}/${key}`, kept.value) as T;
    } catch (err) {
      this.onUnreadable(kind, (err as Error).message);
      await this.put(kind, id, record);
      return record.payload;
    }
  }

  async delete(kind: string, id: string): Promise<void> {
    await this.store.delete(kind, this.hashed(kind, id));
  }

  /** Index values are hashed too (a user code is a credential); lookups hash the same way. */
  private hashedIndex(kind: string, index: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(index)) out[k] = this.hashed(`${kind}#${k}`, v);
    return out;
  }

  /** Records of `kind` whose index `key` is `value`, with their stored keys for deletion. */
  async findBy<T>(kind: string, key: string, value: string): Promise<{ storedKey: string; record: SealedRecord<T> }[]> {
    const keys = await this.store.findBy(kind, key, this.hashed(`${kind}#${key}`, value));
    const out: { storedKey: string; record: SealedRecord<T> }[] = [];
    for (const storedKey of keys) {
      const raw = await this.store.get(kind, storedKey);
      if (!raw) continue;
      try {
        out.push({
          storedKey,
          record: { payload: this.open(`${kind}/${storedKey}`, raw.value) as T, ...(raw.expiresAt !== undefined ? { expiresAt: raw.expiresAt } : {}) },
        });
      } catch (err) {
        this.onUnreadable(kind, (err as Error).message);
      }
    }
    return out;
  }

  /** Whether the record found at `storedKey` is the one `id` names (a record kept under an id since renamed is not). */
  storedAs(kind: string, id: string, storedKey: string): boolean {
    return this.hashed(kind, id) === storedKey;
  }

  deleteStored(kind: string, storedKey: string): Promise<void> {
    return this.store.delete(kind, storedKey);
  }

  /**
   * Whether what is stored was sealed with this key: a canary record (at a fixed, unhashed
   * id) is opened; if it cannot be, everything stored is unusable and the caller says so.
   */
  async checkKey(): Promise<'new' | 'same' | 'changed'> {
    const canary = await this.store.get('Seal', 'canary');
    if (canary) {
      try {
        this.open('Seal/canary', canary.value);
        return 'same';
      } catch {
        // falls through: re-seal the canary under the key now in force
      }
    }
    const mine = this.seal('Seal/canary', 'switchboard');
    if (canary) {
      await this.store.put('Seal', 'canary', { value: mine });
      return 'changed';
    }
    // Created once: of replicas starting together on an empty store one canary is kept, and a
    // replica whose key cannot open it was given another key than the one that wrote it.
    const kept = await this.store.create('Seal', 'canary', { value: mine });
    if (kept.value === mine) return 'new';
    try {
      this.open('Seal/canary', kept.value);
      return 'new';
    } catch {
      return 'changed';
    }
  }

  static randomSecret(): Buffer {
    return randomBytes(32);
  }
}
