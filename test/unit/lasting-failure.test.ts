/**
 * plugins/upstreams/lasting-failure.ts: the reason a server that cannot heal by retrying gives,
 * read as an operator reads it, with and without its references read again
 * (secret-rotation.ts): what to change, and when it is tried again.
 */
import { expect } from 'chai';
import { SecretUnresolvedError } from '../../kernel/secrets/secret-value.js';
import { HttpStatusError } from '../../plugins/upstreams/client/http-answer.js';
import { lastingFailure } from '../../plugins/upstreams/lasting-failure.js';

describe('lasting failures', () => {
  const refused = new HttpStatusError(403, 'forbidden', undefined);
  const missingFile = new SecretUnresolvedError('headers.Authorization', "cannot read the referenced file 'secrets/token'");

  it('a 403 says to renew the referenced secret when the references are read again, and that it is then tried again', () => {
    expect(lastingFailure(refused, true)).to.equal(
      "the server refused Switchboard's credentials (HTTP 403): renew the secret its 'headers' reference, or change its 'headers' (or 'auth') in the definition; tried again as soon as either changes",
    );
    expect(lastingFailure(refused)).to.equal(
      "the server refused Switchboard's credentials (HTTP 403): change its 'headers' (or 'auth') in the definition; not retried until its definition changes or it is started again",
    );
  });

  it('a missing referenced file says to create it, and is tried again once it is there', () => {
    expect(lastingFailure(missingFile, true)).to.equal(
      "headers.Authorization: cannot read the referenced file 'secrets/token': create the file, or change headers.Authorization in the definition; tried again as soon as it resolves",
    );
    expect(lastingFailure(missingFile)).to.match(/create the file \(then edit the definition or start the server again\).*; not retried until/);
  });

  it('says nothing of what a retry may heal', () => {
    expect(lastingFailure(new HttpStatusError(503, 'busy', undefined), true)).to.equal(undefined);
    expect(lastingFailure(new Error('connect ECONNREFUSED 127.0.0.1:9'), true)).to.equal(undefined);
  });
});
