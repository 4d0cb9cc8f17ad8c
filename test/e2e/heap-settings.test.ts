/**
 * V8's young generation stays small however Switchboard is launched (issue 37, item 4): run
 * as `node bin/switchboard.js`, with no flag on the command line, the process that loads
 * thousands of tools or takes a flood of requests must not keep a 3 x 16 MiB young
 * generation. Each case is a real process started the way a launcher starts it, made to
 * allocate as a burst of requests does, then asked how large its young generation became.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { heapFlags } from '../../app/cli/heap-settings.js';
import { ROOT } from '../support/harness.js';

const SETTINGS = join(ROOT, 'dist/app/cli/heap-settings.js');

/**
 * A process launched as bin/switchboard.js launches itself (the settings module first, then
 * the program): it allocates 150 MiB of short-lived objects with some survivors and prints
 * its young generation's size in MiB.
 */
function youngGenerationMiB(nodeArgs: string[], env: Record<string, string>): Promise<number> {
  const program = [
    `await import(${JSON.stringify(SETTINGS)});`,
    "const v8 = await import('node:v8');",
    'let keep = [];',
    'for (let i = 0; i < 3e6; i++) { keep.push({ a: i, b: [i] }); if (keep.length > 20000) keep = []; }',
    "const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');",
    'console.log(s.space_size / 1048576);',
  ].join('\n');
  const { NODE_OPTIONS: _inherited, SWITCHBOARD_V8_FLAGS: _alsoInherited, ...rest } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--input-type=module', '-e', program], {
      env: { ...rest, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`exited ${code}: ${out}`))));
  });
}

describe('heap settings: the young generation stays small however Switchboard is launched', function () {
  this.timeout(60_000);

  it('`node bin/switchboard.js` without flags: kept at its initial size (V8 alone grows it to 32 MiB)', async () => {
    expect(await youngGenerationMiB([], {})).to.be.at.most(2);
    // What the settings prevent, in the same process shape.
    expect(await youngGenerationMiB([], { SWITCHBOARD_V8_FLAGS: '' })).to.be.at.least(16);
  });

  it('a young-generation size the operator chose (command line or NODE_OPTIONS) is left as chosen', async () => {
    // Grown past the initial 2 MiB (the default would have stopped it), up to what was chosen.
    expect(await youngGenerationMiB(['--max-semi-space-size=8'], {}))
      .to.be.above(2)
      .and.at.most(16);
    expect(await youngGenerationMiB([], { NODE_OPTIONS: '--max-semi-space-size=4' }))
      .to.be.above(2)
      .and.at.most(8);
  });

  it('SWITCHBOARD_V8_FLAGS replaces the default', () => {
    expect(heapFlags([], {})).to.equal('--semi-space-growth-factor=1');
    expect(heapFlags([], { SWITCHBOARD_V8_FLAGS: ' --semi-space-growth-factor=2 ' })).to.equal('--semi-space-growth-factor=2');
    expect(heapFlags(['--max_semi_space_size=2'], {})).to.equal('');
    expect(heapFlags([], { NODE_OPTIONS: '--max-heap-size=512' })).to.equal('');
    expect(heapFlags(['--max-semi-space-size=2'], { SWITCHBOARD_V8_FLAGS: '--semi-space-growth-factor=1' })).to.equal('--semi-space-growth-factor=1');
  });
});
