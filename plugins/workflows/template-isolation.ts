/**
 * The backstop for templates that can loop or build (gotpl's `mayLoop`): they render in a
 * worker thread, so that even a function whose cost nobody bounded cannot hold the event
 * loop (and /health). gotpl's budget still stops a rendering inside the worker; if the
 * worker has not answered `GRACE_MS` past the time limit, or passes its memory limits
 * (`resourceLimits`), it is terminated and replaced, and the rendering fails with the
 * template budget error naming the template's place and the limit.
 *
 * One worker, one rendering at a time, the others queued: renderings are short (50 ms by
 * default) and the point is to keep them off the main thread, not to run them in parallel
 * on a gateway whose cores serve calls. Flat templates (field references, a few functions
 * of bounded cost) stay in-process: a round trip costs tens of microseconds, a field
 * reference a fraction of one (docs/workflows.md, "Limits").
 */
import { Worker } from 'node:worker_threads';
import { TemplateBudgetError, TemplateError, TemplateExecError, type BudgetLimits } from '#gotpl';
import { RenderError, type CompiledValue } from './templates.js';
import { toWire, type RenderReply, type RenderRequest, type WireFailure } from './template-wire.js';

/** How long past the time limit the worker may stay silent before it is terminated. */
export const GRACE_MS = 250;

/** The worker's heap: far above what a rendering within 1 MiB of output needs. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

const SETTING = 'aggregator.limits.templates';

interface Job {
  request: RenderRequest;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The place of the first template in `cv`, for an error that no template raised itself. */
function firstTemplate(cv: CompiledValue): { name: string; path: string } {
  switch (cv.kind) {
    case 'template':
      return { name: cv.template.name, path: cv.path };
    case 'array':
      for (const i of cv.items) if (i.kind !== 'literal') return firstTemplate(i);
      break;
    case 'object':
      for (const [, v] of cv.entries) if (v.kind !== 'literal') return firstTemplate(v);
      break;
  }
  return { name: 'template', path: '' };
}

function fromWire(f: WireFailure): TemplateError | Error {
  const at = (x: { templateName: string; line: number; column: number }) => ({ templateName: x.templateName, line: x.line, column: x.column });
  if (f.kind === 'budget') return new TemplateBudgetError(f.message, at(f), f.reason, f.limit, f.value, f.setting);
  if (f.kind === 'exec') return new TemplateExecError(f.message, at(f), f.reason, f.context, f.executing);
  return new Error(`template worker: ${f.message}`);
}

/** The budget error of a rendering whose worker was stopped from outside. */
function stopped(cv: CompiledValue, why: string, limit: 'maxMilliseconds' | 'maxOutputBytes', value: number): RenderError {
  const { name, path } = firstTemplate(cv);
  const reason = `template stopped: ${why}; its worker was stopped (${SETTING}.${limit})`;
  return new RenderError(
    path,
    new TemplateBudgetError(`template: ${name}: ${reason}`, { templateName: name, line: 1, column: 1 }, reason, limit, value, `${SETTING}.${limit}`),
  );
}

/**
 * What a rendering answers in place of a list longer than the `maxItems` it was given: its
 * length only. The caller refuses such a list; receiving it whole would cost the event loop
 * the list's deserialization (and its garbage) for nothing.
 */
export class ListTooLong {
  constructor(readonly length: number) {}
}

export class TemplateIsolation {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly queue: { job: Job; cv: CompiledValue }[] = [];
  private running: { job: Job; cv: CompiledValue; timer: NodeJS.Timeout | null } | null = null;
  private nextId = 1;

  /** `graceMs`: how long past the time limit a silent worker is given before it is terminated. */
  constructor(private readonly graceMs = GRACE_MS) {}

  /**
   * Renders `cv` in the worker within `limits` (aggregator.limits.templates); rejects with
   * RenderError as renderValue throws it. With `maxItems`, a list longer than that resolves
   * as its ListTooLong.
   */
  render(cv: CompiledValue, data: unknown, limits: BudgetLimits, maxItems?: number): Promise<unknown> {
    const request: RenderRequest = { id: this.nextId++, value: toWire(cv), data, limits: { ...limits }, setting: SETTING };
    if (maxItems !== undefined) request.maxItems = maxItems;
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { request, resolve, reject }, cv });
      void this.pump();
    });
  }

  private start(): Promise<void> {
    const worker = new Worker(new URL('./template-thread.js', import.meta.url), { resourceLimits: RESOURCE_LIMITS });
    // The gateway's lifetime is its listeners'; an idle worker must not keep a finished
    // process alive (it holds the event loop only while it renders).
    worker.unref();
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error('template worker: unexpected first message'))));
      worker.once('error', reject);
    });
    worker.on('message', (m: RenderReply | 'ready') => {
      if (m !== 'ready') this.answered(m);
    });
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', () => this.lost(worker, new Error('template worker exited')));
    return ready;
  }

  private async pump(): Promise<void> {
    if (this.running !== null || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    this.running = { ...next, timer: null };
    try {
      // Start-up (importing gotpl) is not the rendering's time: the clock starts once the worker listens.
      await (this.ready ??= this.start());
    } catch (err) {
      this.finish();
      this.ready = null;
      this.worker = null;
      next.job.reject(err);
      return;
    }
    const limitMs = next.job.request.limits.maxMilliseconds;
    this.running.timer = setTimeout(() => this.timedOut(), limitMs + this.graceMs);
    this.worker!.ref();
    this.worker!.postMessage(next.job.request);
  }

  private answered(m: RenderReply): void {
    const run = this.running;
    if (run === null || run.job.request.id !== m.id) return;
    this.finish();
    if (m.ok === 'too-long') run.job.resolve(new ListTooLong(m.length));
    else if (m.ok) run.job.resolve(m.value);
    else {
      const err = fromWire(m.failure);
      run.job.reject(err instanceof TemplateError ? new RenderError(m.path, err) : err);
    }
    void this.pump();
  }

  private timedOut(): void {
    const run = this.running;
    if (run === null) return;
    const ms = run.job.request.limits.maxMilliseconds;
    this.replaceWorker();
    this.finish();
    run.job.reject(stopped(run.cv, `rendering took more than ${ms} ms`, 'maxMilliseconds', ms));
    void this.pump();
  }

  /** The worker failed (out of memory under resourceLimits) or exited: the rendering fails, a new worker follows. */
  private lost(worker: Worker, err: unknown): void {
    if (worker !== this.worker) return;
    const run = this.running;
    this.worker = null;
    this.ready = null;
    if (run === null) return;
    this.finish();
    const oom = err instanceof Error && /ERR_WORKER_OUT_OF_MEMORY|out of memory/i.test(`${(err as { code?: string }).code ?? ''} ${err.message}`);
    run.job.reject(
      oom
        ? stopped(
            run.cv,
            `rendering passed the worker's memory limit of ${RESOURCE_LIMITS.maxOldGenerationSizeMb} MB`,
            'maxOutputBytes',
            run.job.request.limits.maxOutputBytes,
          )
        : err,
    );
    void this.pump();
  }

  private replaceWorker(): void {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) void w.terminate();
  }

  private finish(): void {
    if (this.running?.timer) clearTimeout(this.running.timer);
    this.running = null;
    this.worker?.unref();
  }
}
