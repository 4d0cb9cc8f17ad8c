import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../support/harness.js';

const run = promisify(execFile);
const MODULE = join(ROOT, 'dist', 'test', 'support', 'free-port.js');

/** `count` ports taken by a process of its own, as a parallel worker takes them. */
async function portsOfAnotherProcess(count: number): Promise<number[]> {
  const script = `import(${JSON.stringify(MODULE)}).then(async ({ freePort }) => { const p = []; for (let i = 0; i < ${count}; i++) p.push(await freePort()); console.log(JSON.stringify(p)); })`;
  const { stdout } = await run(process.execPath, ['-e', script]);
  return JSON.parse(stdout) as number[];
}

describe('test ports (test/support/free-port.ts)', () => {
  it('hands processes running at once disjoint ports, below the ephemeral range that listen(0) and outgoing connections use', async () => {
    const [a, b, c] = await Promise.all([portsOfAnotherProcess(150), portsOfAnotherProcess(150), portsOfAnotherProcess(150)]);
    const all = [...a, ...b, ...c];
    expect(new Set(all).size, 'a port handed out twice').to.equal(all.length);
    const ephemeralFrom = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    for (const port of all) expect(port).to.be.within(10_000, ephemeralFrom - 1);
  });
});
