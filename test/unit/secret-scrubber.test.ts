/**
 * kernel/secrets/scrubber.ts with many secrets (past the point where one precompiled pattern
 * finds them) and secrets full of pattern metacharacters: every form of every secret is found,
 * taken literally, and nothing else is touched. The one-secret path goes through the protocol
 * in test/security/scrub.test.ts.
 */
import { expect } from 'chai';
import { SecretScrubber } from '../../kernel/secrets/scrubber.js';
import { encodedForms } from '../../kernel/secrets/secret-forms.js';

const SECRETS = Array.from({ length: 30 }, (_, i) => `s${i}.*+?^\${}()|[]\\/-${'k'.repeat(i % 5)}-0f9e`);

describe('secret scrubber with many secrets', () => {
  const scrubber = new SecretScrubber();
  for (const s of SECRETS) scrubber.add(s);

  it('finds each secret and each of its encoded forms, in text and inside JSON', () => {
    for (const secret of SECRETS)
      for (const form of [secret, ...encodedForms(secret)]) {
        expect(scrubber.scrubText(`before ${form} after`), form).to.equal('before <redacted> after');
        expect(scrubber.scrubValue({ note: `[${form}]` }), form).to.deep.equal({ note: '[<redacted>]' });
      }
  });

  it('takes metacharacters literally: text that a pattern would match, but no secret is, stays', () => {
    const near = 's1xxxxxxxx()|[]\\/-k-0f9e and s1.*+?^${}()|[]\\/-k-0f9f';
    expect(scrubber.scrubText(near)).to.equal(near);
    const value = { a: near };
    expect(scrubber.scrubValue(value)).to.equal(value);
  });

  it('finds the base64 of a secret at any of the three byte alignments inside a longer encoded text', () => {
    const secret = SECRETS[7]!;
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:'])
      for (const how of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${secret}!`, 'utf8').toString(how);
        const scrubbed = scrubber.scrubText(encoded);
        expect(scrubbed, `${how} after '${prefix}'`).to.include('<redacted>');
        expect(Buffer.from(scrubbed, how).toString('latin1')).to.not.include(secret.slice(2, 12));
      }
  });
});
