/**
 * Hardening, round 2 (issue 35), finding 4: unauthenticated memory exhaustion through dynamic
 * client registration. 3,000 POST /oauth/register with a 50,000-character client_name, 50 at a
 * time, no token: all 201, RSS +253 MB. Replayed as the attacker sends it (1,000 of them), then the bounds one by
 * one through the real endpoint: metadata sizes (RFC 7591 invalid_client_metadata naming the
 * field), registrations per client address (429 with Retry-After; the address taken from a
 * trusted proxy's X-Forwarded-For only), the cap on clients (the oldest never used goes first,
 * a signed-in client stays), expiry of unused clients, and the token and closed modes. The flood
 * of 10,000 valid registrations is registration-flood.test.ts: it asserts no time, so it runs
 * in the parallel pass, while this file's first test holds /health to 100 ms and runs alone.
 */
import { expect } from 'chai';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pkce } from '../support/oauth-browser.js';
import { CLIENT_REDIRECT, signIn, startProtected, type OAuthSetup } from '../support/oauth-setup.js';
import { address, MAX_CLIENTS, openRegistrationForSuite, register, SMALL } from '../support/registration-client.js';
import { eventually } from '../support/harness.js';
import { describePolls, flood, rssMiB, whilePolling } from '../support/health-poller.js';

const HEALTH_WITHIN_MS = 100;
const RSS_WITHIN_MIB = 40;
/** Registrations in the oversized flood. */
const OVERSIZED = 1_000;

/** Whether the authorization server still knows `clientId` (an authorization request is accepted, not refused as invalid_client). */
async function known(base: string, clientId: string): Promise<boolean> {
  const url = new URL(`${base}/oauth/authorize`);
  const q = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    state: 's',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    scope: 'mcp',
  };
  for (const [k, v] of Object.entries(q)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual' });
  const text = await res.text();
  if (res.status >= 300 && res.status < 400) return true;
  expect(text, `authorize for ${clientId}`).to.include('invalid_client');
  return false;
}

describe('security: client registration bounded (issue 35, finding 4)', function () {
  this.timeout(300_000);

  describe('open registration behind a trusted proxy, at most 50 clients', () => {
    const current = openRegistrationForSuite();
    let setup: OAuthSetup;
    before(() => (setup = current()));

    // The finding sent 3,000. What is asserted needs far fewer: the burst (20) and the refill are
    // judged by size and the rest turned away by the rate, and 1,000 such documents (48 MiB of
    // them) already exceed the RSS bound several times over had the gateway kept them.
    it(`the finding's flood (${OVERSIZED} registrations with a 50,000-character client_name, 50 at a time, no token) is refused; /health under 100 ms; RSS bounded`, async () => {
      const body = JSON.stringify({ ...SMALL, client_name: 'x'.repeat(50_000) });
      expect((OVERSIZED * Buffer.byteLength(body)) / 2 ** 20, 'MiB sent').to.be.greaterThan(RSS_WITHIN_MIB);
      const pid = setup.sb.proc.pid!;
      const before = await rssMiB(pid);
      const {
        result: { results: answers, peakMiB },
        polls,
      } = await whilePolling(`${setup.base}/health`, () => flood(OVERSIZED, 50, () => register(setup.base, body, '198.51.100.1'), pid));
      const after = await rssMiB(pid);
      console.log(`      oversized flood: RSS before ${before.toFixed(1)} MiB, peak ${peakMiB.toFixed(1)} MiB, after ${after.toFixed(1)} MiB`);
      expect(
        answers.filter((a) => a.status === 201),
        'registered',
      ).to.have.length(0);
      const tooLarge = answers.filter((a) => a.status === 400);
      const limited = answers.filter((a) => a.status === 429);
      // The burst's worth (and what the rate refills meanwhile, 10 a minute) are judged and refused
      // by size; the rest are turned away by the rate, unread.
      expect(tooLarge.length + limited.length).to.equal(OVERSIZED);
      expect(tooLarge.length).to.be.within(20, 40);
      expect(tooLarge[0]!.body).to.deep.equal({
        error: 'invalid_client_metadata',
        error_description: `the registration document is ${Buffer.byteLength(body)} bytes; at most 16384 are allowed`,
      });
      expect(limited[0]!.body.error).to.equal('temporarily_unavailable');
      expect(Number(limited[0]!.retryAfter)).to.be.within(1, 6);
      // The acceptance is the resident set once the flood is over; the peak (garbage not yet collected) is reported.
      expect(after - before, `RSS before ${before.toFixed(1)} MiB, after ${after.toFixed(1)} MiB`).to.be.below(RSS_WITHIN_MIB);
      expect(polls.length, 'health polls').to.be.greaterThan(5);
      expect(Math.max(...polls.map((p) => p.ms)), describePolls(polls)).to.be.below(HEALTH_WITHIN_MS);
    });

    it('each size bound is refused with invalid_client_metadata naming the field, before anything is stored', async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['client_name', { client_name: 'n'.repeat(201) }, 'client_name is 201 characters; at most 200 are allowed'],
        ['client_name#fr', { 'client_name#fr': 'n'.repeat(300) }, 'client_name#fr is 300 characters; at most 200 are allowed'],
        ['logo_uri', { logo_uri: `https://example.com/${'l'.repeat(2048)}` }, 'logo_uri is 2068 characters; at most 2048 are allowed'],
        [
          'redirect_uris',
          { redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:7/cb${i}`) },
          'redirect_uris has 11 entries; at most 10 are allowed',
        ],
        ['redirect_uris[0]', { redirect_uris: [`http://127.0.0.1:7/${'r'.repeat(2048)}`] }, 'redirect_uris[0] is 2067 characters; at most 2048 are allowed'],
        ['contacts', { contacts: Array.from({ length: 33 }, (_, i) => `c${i}@example.com`) }, 'contacts has 33 entries; at most 32 are allowed'],
      ];
      for (const [i, [field, extra, message]] of cases.entries()) {
        const a = await register(setup.base, { ...SMALL, ...extra }, address(100 + i));
        expect(a.status, field).to.equal(400);
        expect(a.body, field).to.deep.equal({ error: 'invalid_client_metadata', error_description: message });
      }
      // Many fields each within bounds, together over the document's 16 KiB.
      const wide = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`x_field_${i}`, 'w'.repeat(2000)]));
      const a = await register(setup.base, { ...SMALL, ...wide }, address(120));
      expect(a.body.error).to.equal('invalid_client_metadata');
      expect(a.body.error_description).to.match(/^the registration document is \d+ bytes; at most 16384 are allowed$/);
      // Within every bound: registered.
      expect((await register(setup.base, { ...SMALL, client_name: 'n'.repeat(200) }, address(121))).status).to.equal(201);
    });

    it('registrations per client address: the burst, then 429 with Retry-After; another address is unaffected; a forged hop left of it counts for nothing; IPv6 counts per /64', async () => {
      const from = '203.0.113.7';
      for (let i = 0; i < 20; i++) expect((await register(setup.base, SMALL, from)).status, `registration ${i + 1}`).to.equal(201);
      const limited = await register(setup.base, SMALL, from);
      expect(limited.status).to.equal(429);
      expect(limited.retryAfter).to.match(/^[1-6]$/);
      expect(limited.body.error_description).to.match(/^too many registrations from 203\.0\.113\.7; retry after [1-6] s$/);
      // The client wrote the left hop itself; the proxy appended the address it saw.
      expect((await register(setup.base, SMALL, `192.0.2.99, ${from}`)).status).to.equal(429);
      expect((await register(setup.base, SMALL, '203.0.113.8')).status).to.equal(201);
      for (let i = 0; i < 20; i++) expect((await register(setup.base, SMALL, `2001:db8:1:2::${(i + 1).toString(16)}`)).status).to.equal(201);
      expect((await register(setup.base, SMALL, '2001:db8:1:2:ffff::1')).status, 'same /64').to.equal(429);
      expect((await register(setup.base, SMALL, '2001:db8:1:3::1')).status, 'next /64').to.equal(201);
    });

    it(`at ${MAX_CLIENTS} clients, the oldest never used is replaced first; a client someone signed in with stays`, async () => {
      const used = (await register(setup.base, SMALL, address(500))).body.client_id!;
      await signIn(setup.base, used);
      const unused = (await register(setup.base, SMALL, address(501))).body.client_id!;
      const later: string[] = [];
      for (let i = 0; i < MAX_CLIENTS + 10; i++) {
        const a = await register(setup.base, SMALL, address(1000 + i));
        expect(a.status, JSON.stringify(a.body)).to.equal(201);
        later.push(a.body.client_id!);
      }
      expect(await known(setup.base, unused), 'the old unused client').to.equal(false);
      expect(await known(setup.base, later[0]!), 'the first of the later ones').to.equal(false);
      expect(await known(setup.base, later[later.length - 1]!), 'the newest').to.equal(true);
      expect(await known(setup.base, used), 'the client in use').to.equal(true);
      // And it still signs people in.
      expect((await signIn(setup.base, used)).access_token).to.be.a('string');
    });
  });

  describe('token mode with persistent file storage, unused clients expiring after 2 seconds', () => {
    let setup: OAuthSetup;
    before(async () => {
      setup = await startProtected({
        upstream: false,
        serverYaml: [
          '      registration:',
          '        mode: token',
          '        token: ${REGISTRATION_TOKEN}',
          `        unusedClientHours: ${2 / 3600}`,
          '      storage:',
          '        persistent: true',
          '        encryptionKey: ${GRANT_KEY}',
        ].join('\n'),
        env: { REGISTRATION_TOKEN: 'only-with-this-token-1', GRANT_KEY: 'k'.repeat(40) },
        configDir: await mkdtemp(join(tmpdir(), 'switchboard-registration-')),
      });
    });
    after(async () => {
      await setup?.sb.stop();
      await setup?.idp.close();
    });

    it('refuses a registration without the token or with another, before reading it; takes one with it', async () => {
      const huge = JSON.stringify({ ...SMALL, client_name: 'x'.repeat(50_000) });
      for (const headers of [{}, { authorization: 'Bearer guessed' }] as Record<string, string>[]) {
        const a = await register(setup.base, huge, '127.0.0.1', headers);
        expect(a.status).to.equal(401);
        expect(a.body.error).to.equal('invalid_token');
      }
      expect((await register(setup.base, SMALL, '127.0.0.1', { authorization: 'Bearer only-with-this-token-1' })).status).to.equal(201);
    });

    it('an unused client is gone once its time is up, from the files as from memory', async () => {
      const id = (await register(setup.base, SMALL, '127.0.0.1', { authorization: 'Bearer only-with-this-token-1' })).body.client_id!;
      expect(await known(setup.base, id)).to.equal(true);
      await eventually(
        () => known(setup.base, id),
        (k) => !k,
        20_000,
        250,
      );
    });
  });

  describe('closed registration', () => {
    let setup: OAuthSetup;
    before(async () => {
      setup = await startProtected({ upstream: false, serverYaml: '      registration:\n        mode: closed' });
    });
    after(async () => {
      await setup?.sb.stop();
      await setup?.idp.close();
    });

    it('refuses every registration with 403 and does not advertise the endpoint', async () => {
      const a = await register(setup.base, SMALL, '127.0.0.1');
      expect(a.status).to.equal(403);
      expect(a.body).to.deep.equal({
        error: 'access_denied',
        error_description: 'dynamic client registration is closed on this server; ask its operator for a client',
      });
      const metadata = (await (await fetch(`${setup.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(metadata).to.not.have.property('registration_endpoint');
    });
  });
});
