import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderConfigReference } from '../../app/cli/config-reference.js';
import { ROOT } from '../support/harness.js';

describe('docs/config-reference.md', () => {
  it('is exactly what the schemas render (regenerate with `node bin/switchboard.js reference > docs/config-reference.md`)', () => {
    const onDisk = readFileSync(join(ROOT, 'docs/config-reference.md'), 'utf8');
    expect(onDisk).to.equal(renderConfigReference());
  });

  it('documents every top-level config.yaml field of the specification', () => {
    const doc = renderConfigReference();
    for (const field of [
      'namespace',
      'orchestrator',
      'aggregator.port',
      'aggregator.host',
      'aggregator.transport',
      'aggregator.enabled',
      'aggregator.admin.enabled',
      'aggregator.admin.port',
      'aggregator.admin.bindAddress',
      'toolsetPresets',
      'auth',
    ]) {
      expect(doc).to.include(`| \`${field}\` |`);
    }
  });
});
