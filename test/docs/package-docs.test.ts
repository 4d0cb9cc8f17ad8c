/**
 * The package ships docs/ (issue 39, item 8): config.yaml's comments (init's template) and
 * `--help` point at docs/*.md, so each page they name must be in the tarball `npm pack`
 * makes. Read from `npm pack --dry-run --json` (no build, no tarball written).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../support/harness.js';

describe('the npm package', function () {
  this.timeout(120_000);

  it('ships every docs/ page that config.yaml comments and --help point at', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path));
    const pointed = new Set<string>();
    for (const source of ['app/cli/args.ts', 'app/cli/init/templates.ts']) {
      for (const m of readFileSync(join(ROOT, source), 'utf8').matchAll(/docs\/[\w-]+\.md/g)) pointed.add(m[0]);
    }
    expect(pointed.size).to.be.greaterThan(0);
    for (const page of pointed) expect(files.has(page), page).to.equal(true);
    // The pages link each other: the whole folder goes.
    expect(files.has('docs/architecture.md')).to.equal(true);
  });
});
