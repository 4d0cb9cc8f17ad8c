/**
 * Switchboard's client secret at the identity provider people sign in with, rotated there by its
 * administrator (Entra and Keycloak client secrets expire) and renewed where the operator keeps
 * it (secrets.env here; a file works the same): sign-in works again without a restart. The token
 * request the provider refuses with `invalid_client` is sent once more with the secret read again
 * (plugins/auth-server/identity-provider.ts); until the operator renews it, sign-in fails.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { writeFileAtomic } from '../../lib/files/atomic-write.js';
import { eventually } from '../support/harness.js';
import { protectedForSuite, registerClient, signIn } from '../support/oauth-setup.js';

const RENEWED = `renewed-idp-secret-${Math.random().toString(36).slice(2)}`;

describe('the identity provider client secret, renewed where it is kept', function () {
  this.timeout(120_000);
  const current = protectedForSuite({ upstream: false, idpSecretIn: 'secrets.env' });

  it('rotated at the provider, sign-in fails until the operator renews it in secrets.env, then works without a restart', async () => {
    const setup = current();
    const client = await registerClient(setup.base);
    expect((await signIn(setup.base, client)).access_token).to.be.a('string');

    setup.idp.rotateClientSecret('switchboard', RENEWED);
    const refused = await signIn(setup.base, client).then(
      () => 'signed in',
      (err: unknown) => (err as Error).message,
    );
    expect(refused, 'the provider refuses the old secret').to.not.equal('signed in');

    await writeFileAtomic(join(setup.sb.configDir, 'secrets.env'), `IDP_CLIENT_SECRET=${RENEWED}\n`);
    // Read again at most once a second: the sign-in right after the refusal above may come too soon.
    const tokens = await eventually(
      () => signIn(setup.base, client),
      (t) => typeof t.access_token === 'string',
      20_000,
      500,
    );
    expect(tokens.access_token).to.be.a('string');
    expect(setup.sb.logs()).to.not.include(RENEWED);
  });
});
