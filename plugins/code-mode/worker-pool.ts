/**
 * The sandbox workers, seen from the event loop. Scripts run on worker threads, not sliced
 * on the event loop: QuickJS's interrupt handler can stop a script but not pause and resume
 * it, so a script spinning in a loop would hold the event loop (and /health) for its whole
 * CPU budget. On a worker it holds only that worker; the event loop sees messages.
 *
 * A script goes to the worker running the fewest; each worker hosts any number (a script
 * waiting on tools costs a runtime's memory, no time). A worker that stays silent past a
 * script's wall time plus a grace is terminated and replaced, ending its scripts with the
 * wall-time limit: the interrupt handler should have stopped them, this is the backstop.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from '../../kernel/index.js';
import type { AbortMessage, Budgets, FromWorker, HostOp, LimitName, RunOutcome, ToWorker, WorkerSetup } from './messages.js';

/** How long past a script's wall time its worker may stay silent before it is replaced. */
const GRACE_MS = 2000;
/** The worker's own V8 heap (QuickJS's memory is WebAssembly memory, limited per script by memoryBytes). */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
const WORKER_URL = new URL('./sandbox-worker.js', import.meta.url);

/** What a script asks while it runs: the host answers with JSON text. */
export type HostHandler = (op: HostOp, name: string, args: string) => Promise<string>;

export interface RunEnd {
  outcome: RunOutcome;
  logs: string[];
  cpuMs: number;
  startMs: number;
}

interface Pending {
  ask: HostHandler;
  resolve: (end: RunEnd) => void;
  slot: Slot;
  backstop: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  aborts: MessagePort;
  abortCount: Int32Array;
  ready: Promise<void>;
  runs: Set<number>;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextRun = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly log: Logger,
  ) {}

  /** Starts the workers (each loads QuickJS's WebAssembly once), so the first script does not wait for it. */
  async warm(): Promise<void> {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /** Runs `code`; `ask` answers its calls. Resolves when it ends, however it ends. */
  async run(code: string, names: readonly string[], budgets: Budgets, ask: HostHandler): Promise<{ id: number; end: Promise<RunEnd> }> {
    if (this.closed) throw new Error('code mode is shutting down');
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    const slot = this.slots.reduce((a, b) => (b.runs.size < a.runs.size ? b : a));
    await slot.ready;
    const id = this.nextRun++;
    slot.runs.add(id);
    const end = new Promise<RunEnd>((resolve) => {
      const backstop = setTimeout(() => this.replace(slot), budgets.wallMs + GRACE_MS);
      this.pending.set(id, { ask, resolve, slot, backstop });
    });
    this.send(slot, { type: 'run', run: id, code, names, budgets });
    return { id, end };
  }

  /** Ends run `id` now (wall time passed while it waited, or its caller cancelled). */
  abort(id: number, limit: LimitName | 'cancelled'): void {
    const p = this.pending.get(id);
    if (!p) return;
    const message: AbortMessage = { run: id, limit };
    p.slot.aborts.postMessage(message);
    // After the post: a script spinning on the worker reads the channel when its interrupt handler sees the count move.
    Atomics.add(p.slot.abortCount, 0, 1);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of this.slots.splice(0)) {
      this.failRuns(slot, { ok: false, kind: 'cancelled', message: 'code mode is shutting down' });
      slot.aborts.close();
      await slot.worker.terminate();
    }
  }

  private spawn(): Slot {
    const channel = new MessageChannel();
    const abortCount = new SharedArrayBuffer(4);
    const setup: WorkerSetup = { aborts: channel.port2, abortCount };
    const worker = new Worker(WORKER_URL, { resourceLimits: RESOURCE_LIMITS, workerData: setup, transferList: [channel.port2] });
    const slot: Slot = { worker, aborts: channel.port1, abortCount: new Int32Array(abortCount), runs: new Set(), ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') resolve();
        else this.received(slot, message);
      });
      worker.once('error', (err) => {
        this.log.warn(`code-mode: a sandbox worker failed (${err.message}); its scripts end and it is replaced`);
        reject(err);
        this.replace(slot);
      });
    });
    // A worker that failed to start is replaced at the next script; nobody waits on this one.
    slot.ready.catch(() => undefined);
    return slot;
  }

  private received(slot: Slot, message: Exclude<FromWorker, { type: 'ready' }>): void {
    const p = this.pending.get(message.run);
    if (!p) return;
    if (message.type === 'end') {
      this.finish(message.run, { outcome: message.outcome, logs: message.logs, cpuMs: message.cpuMs, startMs: message.startMs });
      return;
    }
    const { run, call } = message;
    void p.ask(message.op, message.name, message.args).then((json) => {
      if (this.pending.has(run)) this.send(slot, { type: 'answer', run, call, json });
    });
  }

  private finish(id: number, end: RunEnd): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.backstop);
    p.slot.runs.delete(id);
    p.resolve(end);
  }

  private failRuns(slot: Slot, outcome: RunOutcome): void {
    for (const id of [...slot.runs]) this.finish(id, { outcome, logs: [], cpuMs: 0, startMs: 0 });
  }

  /** The backstop: a worker silent past a script's wall time (or one that failed) is terminated and replaced. */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    this.failRuns(slot, { ok: false, kind: 'limit', limit: 'wallMs', message: 'the script ran past its wall time and its sandbox worker was replaced' });
    slot.aborts.close();
    void slot.worker.terminate();
  }

  private send(slot: Slot, message: ToWorker): void {
    slot.worker.postMessage(message);
  }
}
