/**
 * Hostile run_code scripts, generated (issue 38): each is a few fragments drawn from what an
 * attacker tries (escapes through constructors and globals, prototype and JSON pollution,
 * spinning, growing memory, recursing, flooding promises and calls, reentering run_code,
 * throwing odd values, returning what JSON cannot hold), in random order, through the real
 * protocol. Every script must end with a result, CODE_LIMIT naming a budget or CODE_FAILED,
 * never an internal error, never past its wall time plus a margin; the host it ran on answers
 * a benign script correctly afterwards (nothing leaked from one sandbox into the next).
 *
 * Seeded (FUZZ_SEED=<n> explores further); fast-check prints the seed and the shrunk script.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ran, runCode } from '../support/code-mode.js';
import { connectHttp, errorCode, EVERYTHING, startSwitchboard, stdioServer, text, type Running } from '../support/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 38);
const RUNS = 30;
const OPTIONS = { cpuMs: 300, wallMs: 2000, memoryBytes: 8 << 20, stackBytes: 128 << 10, maxCalls: 6, maxLogBytes: 2048, maxResultBytes: 4096, workers: 1 };
/** The wall time plus room for a loaded machine (a CPU-bound fragment ends at 300 ms of CPU). */
const ENDS_WITHIN_MS = OPTIONS.wallMs + 3000;
const LIMITS = ['wallMs', 'cpuMs', 'memoryBytes', 'stackBytes', 'maxCalls', 'maxResultBytes', 'maxLogBytes'];

/** Fragments of a hostile script; each is a statement list that may throw or never finish. */
const FRAGMENTS = [
  "const G = [].constructor.constructor('return this')(); if (typeof G.process !== 'undefined') return 'ESCAPED';",
  "if (typeof tools.constructor.constructor('return typeof require')() !== 'string') {}",
  "Object.prototype.then = function (r) { r('thenable'); };",
  "Object.defineProperty(Object.prototype, 'ok', { get() { return true; }, configurable: true });",
  "JSON.parse = () => ({ ok: true, value: 'forged' }); JSON.stringify = () => '{}';",
  'Array.prototype[Symbol.iterator] = function* () { yield 1; };',
  'Promise.prototype.then = function () { return this; };',
  'for (let i = 0; i < 1e9; i++) {}',
  'const keep = []; for (let i = 0; i < 64; i++) keep.push(new ArrayBuffer(1 << 20));',
  "let s = 'ab'; for (let i = 0; i < 40; i++) s += s;",
  'const f = (n) => f(n + 1); f(0);',
  'for (let i = 0; i < 1e5; i++) Promise.resolve(i).then((x) => x);',
  "for (let i = 0; i < 50; i++) tools.x_everything_echo({ message: 'flood' + i }).catch(() => 0);",
  "await tools.call('run_code', { code: 'return 1' }).catch((e) => e.code);",
  "await tools.call('core_config_get', {}).catch((e) => e.code);",
  "await tools['x_everything_get-sum']({ a: 1, b: 2 });",
  "for (let i = 0; i < 400; i++) console.log('log line', i, { i });",
  'throw Symbol("odd");',
  'throw { toString() { throw new Error("nested"); } };',
  'return { self: undefined, big: 10n };',
  "return 'r'.repeat(100000);",
  'await new Promise(() => {});',
  "const p = new Proxy({}, { get: () => { throw new Error('trap'); } }); await tools.call('x_everything_echo', p).catch(() => 0);",
  "await tools.search('echo a message back'.repeat(200), 1e9);",
  "await tools.describe('x_everything_echo');",
];

describe('fuzz: hostile run_code scripts', function () {
  this.timeout(600_000);
  let sb: Running;
  let client: Client;

  before(async () => {
    sb = await startSwitchboard({
      'config.yaml': `plugins:\n  code-mode:\n    enabled: true\n    options: ${JSON.stringify(OPTIONS)}\n`,
      'mcpservers/everything.yaml': stdioServer('everything', EVERYTHING),
    });
    client = await connectHttp(sb.url);
  });
  after(async () => {
    await client?.close();
    await sb?.stop();
  });

  it('every generated script ends within its budgets, and the next sandbox is clean', async () => {
    const script = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('\n'));
    await fc.assert(
      fc.asyncProperty(script, async (code) => {
        const t0 = performance.now();
        const r = await runCode(client, code);
        const ms = performance.now() - t0;
        expect(ms, `took ${Math.round(ms)} ms:\n${code}`).to.be.below(ENDS_WITHIN_MS);
        if (!r.isError) {
          expect(JSON.stringify((r.structuredContent as { result: unknown }).result)).to.not.include('ESCAPED');
          return;
        }
        const code_ = errorCode(r);
        expect(['CODE_LIMIT', 'CODE_FAILED'], `${text(r)}\n${code}`).to.include(code_);
        if (code_ === 'CODE_LIMIT') {
          const limit = (r.structuredContent as { error: { details: { limit: string } } }).error.details.limit;
          expect(LIMITS).to.include(limit);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const clean = ran(await runCode(client, "return [({}).ok, ({}).then, JSON.stringify([1]), await tools['x_everything_get-sum']({ a: 2, b: 3 })]"));
    expect(clean.result).to.deep.equal([null, null, '[1]', 'The sum of 2 and 3 is 5.']);
  });
});
