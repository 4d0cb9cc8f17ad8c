/**
 * What the client keeps per endpoint: its OAuth registration and tokens, in one file per
 * endpoint under $XDG_CONFIG_HOME/switchboard/credentials (else ~/.config/...), mode 0600,
 * written atomically so a crash never leaves half a credential.
 */
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OAuthClientInformationMixed, OAuthTokens } from '#mcp-sdk/shared/auth.js';
import { writeFileAtomic } from '../lib/files/atomic-write.js';

export interface Credentials {
  endpoint: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** Epoch seconds when tokens.access_token lapses, when the server said. */
  expiresAt?: number;
}

export function credentialsDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'switchboard', 'credentials');
}

export class CredentialStore {
  readonly path: string;

  constructor(
    readonly endpoint: string,
    dir = credentialsDir(),
  ) {
    this.path = join(dir, `${createHash('sha256').update(endpoint).digest('hex').slice(0, 32)}.json`);
  }

  async load(): Promise<Credentials> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as Credentials;
      return parsed.endpoint === this.endpoint ? parsed : { endpoint: this.endpoint };
    } catch {
      return { endpoint: this.endpoint };
    }
  }

  async save(credentials: Credentials): Promise<void> {
    await writeFileAtomic(this.path, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  }

  async forget(): Promise<boolean> {
    try {
      await rm(this.path);
      return true;
    } catch {
      return false;
    }
  }
}
