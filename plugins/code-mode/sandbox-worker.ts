/**
 * A sandbox worker thread: runs scripts in QuickJS (WebAssembly), each in a runtime of its own
 * with its memory and stack limits, its CPU and wall time counted by the interrupt handler.
 * The script has no filesystem, network, process or timers: the QuickJS context this build
 * makes has none, and the only ways out are the two host functions the prelude keeps to
 * itself. One worker hosts many scripts at once (one waiting on tools costs nothing); a
 * script spinning runs until its CPU budget, on this thread, never on the event loop.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { getQuickJS, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten';
import type { AbortMessage, Budgets, FromWorker, HostOp, LimitName, RunOutcome, ToWorker, WorkerSetup } from './messages.js';
import { limitMessage } from './limit-message.js';
import { PRELUDE } from './prelude.js';

const port = parentPort;
if (!port) throw new Error('sandbox-worker runs only as a worker thread');
const QuickJS = await getQuickJS();
const setup = workerData as WorkerSetup;
const abortCount = new Int32Array(setup.abortCount);
let abortsSeen = 0;

/** Error text kept from a script's exception: its message and the first frames, never a whole stack of a deep recursion. */
const MAX_ERROR_CHARS = 2000;
const STACK_FRAMES = 5;

function post(message: FromWorker): void {
  port!.postMessage(message);
}

/**
 * What is allocated to tell a thrown `null` from running out of memory: a sixteenth of the
 * script's memory, at least 64 KiB, so that what the failed allocation itself left free cannot
 * pass for room. A script that throws null itself within a sixteenth of its limit is taken as
 * out of memory, which it nearly was. The probe runs in the script's context: a script that
 * replaced Uint8Array changes only which of the two its own end is called.
 */
const OUT_OF_MEMORY_PROBE_SHARE = 16;
const OUT_OF_MEMORY_PROBE_MIN_BYTES = 64 << 10;

/**
 * Promise reactions run this many at a time; after a batch that did not empty the queue (a
 * flood), the memory is probed for a quarter of the script's limit. An allocation that fails
 * inside a reaction rejects only that reaction's promise, `null` when QuickJS cannot even
 * allocate its error, and the chain that filled the memory is then freed at once: afterwards
 * nothing tells running out of memory from a script that threw null or awaits forever, so the
 * flood is watched while it grows. One probe per batch, about a tenth of a millisecond.
 */
const JOBS_PER_LOOK = 4096;
const PRESSURE_PROBE_SHARE = 4;

/** QuickJS's own words for the limits it enforces itself. */
function limitOfError(message: string): LimitName | undefined {
  if (message === 'out of memory') return 'memoryBytes';
  if (message === 'stack overflow') return 'stackBytes';
  return undefined;
}

class Run {
  private readonly rt: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private readonly handles: QuickJSHandle[] = [];
  private readonly pending = new Map<number, QuickJSDeferredPromise>();
  private readonly queue: Extract<FromWorker, { type: 'call' }>[] = [];
  private readonly logs: string[] = [];
  private readonly started = performance.now();
  private readonly deadline: number;
  private promise: QuickJSHandle | undefined;
  private cpuMs = 0;
  private sliceStart = 0;
  private startMs = 0;
  private calls = 0;
  private active = 0;
  private logBytes = 0;
  private stopped: LimitName | 'cancelled' | undefined;
  private ended = false;
  /** A flood of reactions was seen holding more than three quarters of the memory (JOBS_PER_LOOK). */
  private memoryPressed = false;

  constructor(
    private readonly id: number,
    private readonly budgets: Budgets,
  ) {
    this.deadline = this.started + budgets.wallMs;
    this.rt = QuickJS.newRuntime();
    this.rt.setMemoryLimit(budgets.memoryBytes);
    this.rt.setMaxStackSize(budgets.stackBytes);
    this.rt.setInterruptHandler(() => this.interrupted());
    this.vm = this.rt.newContext();
  }

  start(code: string, names: readonly string[]): void {
    const vm = this.vm;
    const host = this.keep(vm.newFunction('host', (op, name, args) => this.hostCall(vm.getString(op) as HostOp, vm.getString(name), vm.getString(args))));
    const log = this.keep(vm.newFunction('log', (text) => this.log(vm.getString(text))));
    const prelude = this.slice(() => vm.evalCode(PRELUDE, 'prelude.js'));
    if (prelude.error) return this.failWith(this.keep(prelude.error));
    const api = this.slice(() => vm.callFunction(this.keep(prelude.value), vm.undefined, host, log, this.keep(vm.newString(JSON.stringify(names)))));
    if (api.error) return this.failWith(this.keep(api.error));
    const [run, format] = [0, 1].map((i) => this.keep(vm.getProp(this.keep(api.value), i))) as [QuickJSHandle, QuickJSHandle];
    this.startMs = performance.now() - this.started;
    const ran = this.slice(() => vm.callFunction(run, vm.undefined, this.keep(vm.newString(code))));
    if (ran.error) return this.failWith(this.keep(ran.error));
    this.checkOutOfMemory(this.keep(ran.value));
    const result = this.slice(() => vm.callFunction(format, vm.undefined, ran.value));
    if (result.error) return this.failWith(this.keep(result.error));
    this.promise = this.keep(result.value);
    this.pump();
  }

  /** An answer from the host: settles the script's pending call and lets the script run on. */
  answer(call: number, json: string): void {
    // An abort comes on its own channel, so it may be behind this answer (a cancelled run's call
    // answers CANCELLED): read it first, or the script would go on and see that as its call's error.
    readAborts();
    const deferred = this.pending.get(call);
    if (this.ended || !deferred) return;
    this.pending.delete(call);
    this.active--;
    try {
      const value = this.vm.newString(json);
      this.slice(() => deferred.resolve(value));
      value.dispose();
    } catch {
      // The answer does not fit in the script's memory.
      this.stopped ??= 'memoryBytes';
    }
    deferred.dispose();
    this.dequeue();
    this.pump();
  }

  abort(limit: LimitName | 'cancelled'): void {
    if (this.ended) return;
    this.stopped ??= limit;
    this.settle();
  }

  private keep<T extends QuickJSHandle>(handle: T): T {
    this.handles.push(handle);
    return handle;
  }

  /** Runs VM code, counting its CPU time (the interrupt handler reads the running slice). */
  private slice<T>(fn: () => T): T {
    this.sliceStart = performance.now();
    try {
      return fn();
    } finally {
      this.cpuMs += performance.now() - this.sliceStart;
      this.sliceStart = 0;
    }
  }

  /** An abort read from inside a slice: the script stops at once; one that was waiting ends when this slice is over. */
  stopSoon(limit: LimitName | 'cancelled'): void {
    if (this.ended) return;
    this.stopped ??= limit;
    setImmediate(() => this.settle());
  }

  private interrupted(): boolean {
    readAborts();
    if (this.stopped !== undefined) return true;
    const now = performance.now();
    if (now > this.deadline) this.stopped = 'wallMs';
    else if (this.sliceStart > 0 && this.cpuMs + (now - this.sliceStart) > this.budgets.cpuMs) this.stopped = 'cpuMs';
    return this.stopped !== undefined;
  }

  private hostCall(op: HostOp, name: string, args: string): QuickJSHandle {
    const deferred = this.vm.newPromise();
    if (this.stopped !== undefined) {
      deferred.dispose();
      return this.vm.undefined;
    }
    if (++this.calls > this.budgets.maxCalls) {
      // The call is never made; the script ends at the interrupt handler's next look.
      this.stopped = 'maxCalls';
      deferred.dispose();
      return this.vm.undefined;
    }
    this.pending.set(this.calls, deferred);
    const message: Extract<FromWorker, { type: 'call' }> = { type: 'call', run: this.id, call: this.calls, op, name, args };
    if (this.active < this.budgets.maxConcurrentCalls) {
      this.active++;
      post(message);
    } else {
      this.queue.push(message);
    }
    return deferred.handle.dup();
  }

  private dequeue(): void {
    while (this.active < this.budgets.maxConcurrentCalls && this.queue.length > 0) {
      this.active++;
      post(this.queue.shift()!);
    }
  }

  private log(text: string): void {
    if (this.stopped !== undefined) return;
    const bytes = Buffer.byteLength(text) + 1;
    if (this.logBytes + bytes > this.budgets.maxLogBytes) {
      this.stopped = 'maxLogBytes';
      return;
    }
    this.logBytes += bytes;
    this.logs.push(text);
  }

  /** Runs the jobs the last event made ready (promise reactions), then looks whether the script is done. */
  private pump(): void {
    if (this.ended) return;
    while (this.stopped === undefined) {
      const jobs = this.slice(() => this.rt.executePendingJobs(JOBS_PER_LOOK));
      // A job's own exception rejects its promise; what comes back here is the engine's (a limit).
      if (jobs.error) return this.failWith(this.keep(jobs.error));
      if (jobs.value < JOBS_PER_LOOK) break;
      if (!this.memoryPressed) this.memoryPressed = this.slice(() => !this.roomFor(Math.floor(this.budgets.memoryBytes / PRESSURE_PROBE_SHARE)));
    }
    this.settle();
  }

  private settle(): void {
    if (this.ended) return;
    if (this.stopped !== undefined) return this.end(this.stoppedOutcome(this.stopped));
    if (!this.promise) return;
    const state = this.vm.getPromiseState(this.promise);
    if (state.type === 'pending') {
      // Waiting on nothing it can still get: no call in flight or queued, no job to run. After a
      // flood that filled the memory, that is a reaction chain out of memory (JOBS_PER_LOOK).
      if (this.pending.size === 0)
        this.end(
          this.memoryPressed
            ? this.stoppedOutcome('memoryBytes')
            : { ok: false, kind: 'error', message: 'the script awaits a promise that nothing can settle' },
        );
      return;
    }
    if (state.type === 'rejected') return this.failWith(this.keep(state.error));
    const value = this.keep(state.value);
    const json = this.vm.typeof(value) === 'string' ? this.vm.getString(value) : 'null';
    const bytes = Buffer.byteLength(json);
    if (bytes > this.budgets.maxResultBytes) return this.end(this.stoppedOutcome('maxResultBytes'));
    this.end({ ok: true, json });
  }

  private stoppedOutcome(limit: LimitName | 'cancelled'): RunOutcome {
    if (limit === 'cancelled') return { ok: false, kind: 'cancelled', message: 'the script was cancelled' };
    const budget = limit === 'maxScriptsPerCaller' ? 0 : this.budgets[limit];
    return { ok: false, kind: 'limit', limit, message: limitMessage(limit, budget) };
  }

  private errorText(error: QuickJSHandle): string {
    try {
      const e: unknown = this.vm.dump(error);
      if (e && typeof e === 'object' && 'message' in e) {
        const { name, message, stack } = e as { name?: unknown; message?: unknown; stack?: unknown };
        // The script's own frames: the prelude's and the engine's are noise to its author.
        const lines = typeof stack === 'string' ? stack.split('\n').filter((l) => l.trim() && !l.includes('prelude.js') && !l.includes('(native)')) : [];
        const frames = lines.slice(0, STACK_FRAMES).join('\n');
        return `${typeof name === 'string' ? name : 'Error'}: ${String(message)}${frames ? `\n${frames}` : ''}`.slice(0, MAX_ERROR_CHARS);
      }
      return `thrown: ${typeof e === 'string' ? e : JSON.stringify(e)}`.slice(0, MAX_ERROR_CHARS);
    } catch {
      return 'the script failed (its error could not be read)';
    }
  }

  private failWith(error: QuickJSHandle): void {
    if (this.stopped !== undefined) return this.end(this.stoppedOutcome(this.stopped));
    const message = this.errorText(error);
    const limit = limitOfError(message.split('\n', 1)[0]!.replace(/^\w*Error: /, '')) ?? (this.outOfMemory(error) ? 'memoryBytes' : undefined);
    this.end(limit ? this.stoppedOutcome(limit) : { ok: false, kind: 'error', message });
  }

  /**
   * The script's own promise (`run`'s, before any job ran) rejected with `null` by running out of
   * memory in its synchronous part: stopped for memoryBytes now, before its queued jobs run and
   * free what filled the memory (a flood of promise reactions).
   */
  private checkOutOfMemory(ran: QuickJSHandle): void {
    if (this.stopped !== undefined) return;
    const state = this.vm.getPromiseState(ran);
    if (state.type === 'fulfilled') state.value.dispose();
    if (state.type !== 'rejected') return;
    const out = this.outOfMemory(state.error);
    state.error.dispose();
    if (out) this.stopped = 'memoryBytes';
  }

  /**
   * QuickJS throws `null` for running out of memory when it cannot allocate even its own
   * InternalError: a flood of promise reactions fills the runtime with queued jobs, which stay
   * queued after the exception, or a chain of them fills it and is freed (JOBS_PER_LOOK). A
   * script may throw null itself, so the memory is asked: an allocation that fails too, or a
   * flood seen filling it, says the limit was reached.
   */
  private outOfMemory(error: QuickJSHandle): boolean {
    return this.vm.typeof(error) === 'object' && this.vm.dump(error) === null && (this.memoryPressed || this.memoryFull());
  }

  /** Whether the script's memory is (nearly) all used: an allocation of a sixteenth of it fails. */
  private memoryFull(): boolean {
    return !this.roomFor(Math.max(OUT_OF_MEMORY_PROBE_MIN_BYTES, Math.floor(this.budgets.memoryBytes / OUT_OF_MEMORY_PROBE_SHARE)));
  }

  /** Whether `bytes` more fit in the script's memory: an allocation of them, made and dropped in its context. */
  private roomFor(bytes: number): boolean {
    const probe = this.vm.evalCode(`new Uint8Array(${bytes}).length`);
    if (probe.error) {
      probe.error.dispose();
      return false;
    }
    probe.value.dispose();
    return true;
  }

  private end(outcome: RunOutcome): void {
    if (this.ended) return;
    this.ended = true;
    runs.delete(this.id);
    for (const d of this.pending.values()) d.dispose();
    this.pending.clear();
    for (const h of this.handles) if (h.alive) h.dispose();
    try {
      this.vm.dispose();
      this.rt.dispose();
    } catch {
      // A runtime a limit left inconsistent is dropped with the module's memory it holds; the worker goes on.
    }
    post({ type: 'end', run: this.id, outcome, logs: this.logs, cpuMs: this.cpuMs, startMs: this.startMs });
  }
}

const runs = new Map<number, Run>();

/**
 * Aborts waiting on the abort channel, read synchronously: the worker's event loop does not
 * turn while a script spins, so a cancellation would otherwise wait for the CPU budget. One
 * atomic read per interrupt when nothing is waiting.
 */
function readAborts(): void {
  const count = Atomics.load(abortCount, 0);
  if (count === abortsSeen) return;
  abortsSeen = count;
  for (let m = receiveMessageOnPort(setup.aborts); m; m = receiveMessageOnPort(setup.aborts)) {
    const { run, limit } = m.message as AbortMessage;
    runs.get(run)?.stopSoon(limit);
  }
}

// An abort that arrives while no script runs on this worker comes as a message.
setup.aborts.on('message', (m: AbortMessage) => runs.get(m.run)?.abort(m.limit));

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'run': {
      const run = new Run(message.run, message.budgets);
      runs.set(message.run, run);
      run.start(message.code, message.names);
      break;
    }
    case 'answer':
      runs.get(message.run)?.answer(message.call, message.json);
      break;
  }
});
// The first script through QuickJS's WebAssembly pays for its compilation; a throwaway one
// pays it here, before the worker says it is ready (its end is for run 0, which nobody awaits).
const WARM_UP: Budgets = {
  wallMs: 60_000,
  cpuMs: 60_000,
  memoryBytes: 16 << 20,
  stackBytes: 256 << 10,
  maxCalls: 1,
  maxConcurrentCalls: 1,
  maxResultBytes: 1 << 20,
  maxLogBytes: 1024,
};
new Run(0, WARM_UP).start('const o = {a: [1, 2, 3].map((x) => x * 2)}; console.log(o); return JSON.parse(JSON.stringify(o));', ['x']);
post({ type: 'ready' });
