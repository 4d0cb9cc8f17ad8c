/** Every error Switchboard raises on purpose is a SwitchboardError with a code, whatever part raised it. */
import { expect } from 'chai';
import { parseArgs, UsageError } from '../../app/cli/args.js';
import { SwitchboardError } from '../../kernel/errors.js';
import { compileGlob, GlobSyntaxError } from '../../lib/glob.js';
import { PolicySetRejectedError } from '../../plugins/authorization-cedar/authorizer.js';
import { AuthSettingsError } from '../../plugins/auth-server/settings.js';
import { IdentityProviderError } from '../../plugins/auth-server/identity-provider.js';
import { ConditionError } from '../../plugins/workflows/conditions.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return expect.fail('nothing was thrown');
}

describe('errors: one base class with codes', () => {
  it('a glob that does not parse', () => {
    const err = thrown(() => compileGlob('x_[abc'));
    expect(err).to.be.instanceOf(GlobSyntaxError).and.instanceOf(SwitchboardError);
    expect(err).to.include({ code: 'INVALID_ARGUMENTS', name: 'GlobSyntaxError', message: "unclosed '[' at position 3 in pattern 'x_[abc'" });
  });

  it('a command line that does not parse', () => {
    const err = thrown(() => parseArgs(['serve', '--port', 'many']));
    expect(err).to.be.instanceOf(UsageError).and.instanceOf(SwitchboardError);
    expect(err).to.include({ code: 'INVALID_ARGUMENTS', message: "--port must be an integer from 0 to 65535, got 'many'" });
  });

  it('configuration, policies, sign-in and workflow conditions', () => {
    const cases: [SwitchboardError, string, string][] = [
      [new AuthSettingsError('baseUrl', 'is required'), 'CONFIG_INVALID', 'config.yaml: aggregator.oauth.server.baseUrl: is required'],
      [new PolicySetRejectedError('Cedar refused it'), 'CONFIG_INVALID', 'Cedar refused it'],
      [new IdentityProviderError('the identity provider refused the sign-in', 'login_required'), 'AUTH_REQUIRED', 'the identity provider refused the sign-in'],
      [
        new ConditionError('condition template rendered "maybe", not true or false'),
        'WORKFLOW_FAILED',
        'condition template rendered "maybe", not true or false',
      ],
    ];
    for (const [err, code, message] of cases) {
      expect(err).to.be.instanceOf(SwitchboardError);
      expect(err).to.include({ code, message, name: err.constructor.name });
    }
  });
});
