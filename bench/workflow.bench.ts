/**
 * Engine overhead per step: workflows of trivial steps (10 in a row, a loop of 100
 * iterations, a group of 10) against the same number of direct calls of the same tool
 * through the kernel's tool path (what call_tool does), in-process so the figure is the
 * engine's own cost: rendering, conditions, records, persistence scheduling.
 */
import { Cancellation } from '../kernel/cancellation.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalogue } from '../kernel/catalogue.js';
import { readSettings } from '../kernel/config/pipeline.js';
import { createHooks } from '../kernel/hooks.js';
import { ToolInvoker } from '../kernel/invoke.js';
import { createLogger } from '../kernel/log.js';
import type { RequestContext } from '../kernel/request-context.js';
import type { Session } from '../kernel/sessions.js';
import type { CallContext } from '../kernel/tools.js';
import type { WorkflowResource } from '../kernel/config/settings.js';
import { compileWorkflow } from '../plugins/workflows/compile-workflow.js';
import { fromResource } from '../plugins/workflows/definition.js';
import { WorkflowEngine } from '../plugins/workflows/engine.js';
import { ExecutionStore } from '../plugins/workflows/execution-store.js';
import { median } from './stats.js';

export interface WorkflowFigures {
  shape: string;
  calls: number;
  directUs: number;
  workflowUs: number;
  addedPerStepUs: number;
  targetPerStepUs: number;
}

type Spec = WorkflowResource['spec'];

const SHAPES: { shape: string; calls: number; spec: Spec }[] = [
  {
    shape: '10 steps in a row',
    calls: 10,
    spec: {
      args: { x: { type: 'string', default: 'hello' } },
      steps: Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, tool: 'core_noop', args: { x: '{{ .input.x }}', i } })),
    },
  },
  {
    shape: 'a loop of 100 iterations',
    calls: 100,
    spec: {
      args: { x: { type: 'string', default: 'hello' } },
      steps: [
        {
          id: 'each',
          forEach: {
            items: Array.from({ length: 100 }, (_, i) => i),
            as: 'n',
            steps: [{ id: 'one', tool: 'core_noop', args: { x: '{{ .input.x }}', i: '{{ .vars.n }}' } }],
          },
        },
      ],
    },
  },
  {
    shape: 'a parallel group of 10',
    calls: 10,
    spec: {
      args: { x: { type: 'string', default: 'hello' } },
      steps: [{ id: 'all', parallel: Array.from({ length: 10 }, (_, i) => ({ id: `p${i}`, tool: 'core_noop', args: { x: '{{ .input.x }}', i } })) }],
    },
  },
];

export async function benchWorkflow(rounds = 5, iterations = 300): Promise<WorkflowFigures[]> {
  const log = createLogger({ level: 'error' });
  const hooks = createHooks();
  const catalogue = new Catalogue(hooks, log);
  catalogue.replaceSource('bench', [
    {
      name: 'core_noop',
      kind: 'core',
      description: 'Return its input.',
      inputSchema: { type: 'object', properties: { x: { type: 'string' }, i: { type: 'number' } } },
      invoke: async (args) => ({ content: [{ type: 'text', text: String(args.x) }] }),
    },
  ]);
  const tools = new ToolInvoker(catalogue, hooks, log);
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-wfbench-'));
  // The default limits, as a config directory without config.yaml gets them.
  const { limits } = (await readSettings(dir)).settings.aggregator;
  const store = new ExecutionStore(dir, { maxCount: 1_000_000, maxAgeDays: 1, maxTotalBytes: () => Number.MAX_SAFE_INTEGER }, log);
  await store.open();
  const engine = new WorkflowEngine(tools, store, { maxRecordedResultBytes: 65536, limits: () => limits });
  const request: RequestContext = { session: {} as Session, headers: {}, slots: new Map() };
  const call: CallContext = { request, cancellation: new Cancellation(), depth: 0 };
  const measure = async (fn: () => Promise<unknown>) => {
    const perRound: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) await fn();
      perRound.push(Number(process.hrtime.bigint() - t0) / 1e3 / iterations);
      await store.flush();
    }
    return median(perRound);
  };
  const figures: WorkflowFigures[] = [];
  for (const { shape, calls, spec } of SHAPES) {
    const compiled = compileWorkflow(fromResource({ apiVersion: 'v1', kind: 'Workflow', metadata: { name: 'bench' }, spec }, 'bench'));
    if (!compiled.ok) throw new Error(compiled.errors.join('; '));
    const direct = async () => {
      for (let i = 0; i < calls; i++) await tools.call('core_noop', { x: 'hello', i }, call);
    };
    const workflow = () => engine.run(compiled.workflow, { x: 'hello' }, call);
    await measure(direct);
    await measure(workflow);
    const directUs = await measure(direct);
    const workflowUs = await measure(workflow);
    figures.push({
      shape,
      calls,
      directUs: Math.round(directUs * 10) / 10,
      workflowUs: Math.round(workflowUs * 10) / 10,
      addedPerStepUs: Math.round(((workflowUs - directUs) / calls) * 10) / 10,
      targetPerStepUs: 20,
    });
  }
  await store.flush();
  await rm(dir, { recursive: true, force: true });
  return figures;
}
