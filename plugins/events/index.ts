/**
 * events: a typed event log of what happens to servers, workflows and executions
 * (kernel/contracts/events.ts), kept under state/events.jsonl in file mode with retention,
 * and served by core_events (filters in either spelling, follow per call or per session). Other plugins record through the `events`
 * service; this one turns the kernel's hooks into events (sources.ts).
 */
import { join } from 'node:path';
import { callerOf, definePlugin, permits, publishCoreTools } from '../../kernel/index.js';
import { coreEventsTool } from './core-events.js';
import { JournaledEventLog } from './event-log.js';
import { FileEventJournal } from './file-journal.js';
import { tapSources } from './sources.js';
import { tapAudit } from './audit.js';
import { SessionFollows } from './session-follow.js';

export default definePlugin<{ maxEvents: number; maxAgeHours: number }>({
  name: 'events',
  description: 'Event log of servers, workflows and executions; core_events.',
  provides: ['events'],
  // cluster-redis's shared stream, when it provides one; else the journal here.
  uses: ['event-journal'],
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      maxEvents: { type: 'integer', minimum: 10, default: 10000, description: 'Events kept (the oldest go first).' },
      maxAgeHours: { type: 'number', exclusiveMinimum: 0, default: 168, description: 'Events older than this are dropped.' },
    },
  },
  setup({ kernel, options, log }) {
    // File mode keeps history across restarts; other stores keep it in memory.
    const file = kernel.settings().orchestrator ? undefined : join(kernel.config.configPath, 'state', 'events.jsonl');
    const shared = kernel.services.find('event-journal');
    const journal = shared ? shared.create(options) : new FileEventJournal(file, options, (m) => log.warn(m));
    const events = new JournaledEventLog(journal, (text) => kernel.secrets.scrubText(text));
    kernel.services.provide('events', events);
    tapSources(kernel, events);
    tapAudit(kernel, events);
    const readable = (call: Parameters<typeof callerOf>[1]) => {
      if (permits(kernel, call, 'read', { type: 'events', name: 'events' })) return undefined;
      const key = callerOf(kernel, call).key;
      return (e: { actor?: { key: string } }) => e.actor?.key === key;
    };
    const follows = new SessionFollows(events);
    kernel.hooks.onSessionClose.tap('events', (session) => follows.stop(session));
    publishCoreTools(kernel, 'core-events', (p) => [coreEventsTool(p, events, follows, readable)]);
    return {
      start: () => journal.open(),
      stop: () => journal.close(),
    };
  },
});
