/**
 * Restart-only config.yaml keys (schemas/: x-applies): what the schema marks, how a change is
 * described, and that the tracker says each change once.
 */
import { expect } from 'chai';
import { loadSchema } from '../../kernel/config/validate.js';
import { restartChanges, restartFingerprints, restartOnlyPaths, RestartTracker } from '../../kernel/config/restart-keys.js';
import { createLogger } from '../../kernel/log.js';
import type { Settings } from '../../kernel/config/settings.js';

function settingsOf(value: object): Settings {
  return value as Settings;
}

describe('restart-only config.yaml keys', () => {
  it('are marked in the schema with x-applies: restart, and no other value of x-applies is written', () => {
    const values: unknown[] = [];
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (k === 'x-applies') values.push(v);
        else walk(v);
      }
    };
    walk(loadSchema('config'));
    expect(values.length).to.be.greaterThan(5);
    expect(new Set(values)).to.deep.equal(new Set(['restart']));
    const keys = restartOnlyPaths().map((p) => p.join('.'));
    expect(keys).to.include.members(['aggregator.port', 'aggregator.host', 'plugins', 'embedder', 'namespace']);
    // Applied live: the admin listener, limits, the prefix of core tools.
    expect(keys.filter((k) => k.startsWith('aggregator.admin') || k.startsWith('aggregator.limits') || k === 'aggregator.servicePrefix')).to.deep.equal([]);
  });

  it('names the changed leaves, with both values only for booleans and numbers', () => {
    const before = settingsOf({
      namespace: 'a',
      aggregator: { port: 8090, admin: { enabled: false } },
      plugins: { workflows: { options: { maxRecordedResultBytes: 1024 } } },
    });
    const after = settingsOf({
      namespace: 'b',
      aggregator: { port: 9000, admin: { enabled: true } },
      plugins: { workflows: { options: { maxRecordedResultBytes: 2048 } } },
    });
    expect(restartChanges(before, after)).to.deep.equal([
      { key: 'namespace' },
      { key: 'aggregator.port', inForce: 8090, configured: 9000 },
      { key: 'plugins.workflows.options.maxRecordedResultBytes', inForce: 1024, configured: 2048 },
    ]);
    expect(restartChanges(before, before)).to.deep.equal([]);
  });

  it('fingerprints strings so no value reaches the file check reads', () => {
    const prints = restartFingerprints(settingsOf({ namespace: 'team-secret-name', aggregator: { port: 8090 } }));
    expect(prints['aggregator.port']).to.equal(8090);
    expect(prints.namespace).to.match(/^sha256:[0-9a-f]{32}$/);
    expect(JSON.stringify(prints)).to.not.include('team-secret-name');
  });

  it('logs a change once, again when it changes again, and once when it is back', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'debug', sink: { write: (l) => lines.push(l) } });
    const inForce = settingsOf({ aggregator: { port: 8090 } });
    const tracker = new RestartTracker(inForce, log);
    tracker.observe(settingsOf({ aggregator: { port: 9000 } }));
    tracker.observe(settingsOf({ aggregator: { port: 9000 }, toolsetPresets: {} }));
    expect(lines.filter((l) => l.includes('aggregator.port changes on restart (8090 in force, 9000 configured)'))).to.have.length(1);
    expect(tracker.list()).to.deep.equal([{ key: 'aggregator.port', inForce: 8090, configured: 9000 }]);
    tracker.observe(settingsOf({ aggregator: { port: 9001 } }));
    expect(lines.filter((l) => l.includes('changes on restart'))).to.have.length(2);
    tracker.observe(settingsOf({ aggregator: { port: 8090 } }));
    expect(lines.at(-1)).to.include('aggregator.port is back to the value in force');
    expect(tracker.list()).to.deep.equal([]);
  });
});
