/**
 * A plugin switched off takes its resource kind with it: files of that kind are not read
 * (not validated, not in the snapshot), and the user is told which file and why, once.
 * `Kernel.check` sets plugins up without starting them: no listener, no processes.
 */
import { BUILT_IN_PLUGINS } from '../../app/built-in-plugins.js';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Kernel } from '../../kernel/kernel.js';
import { createLogger } from '../../kernel/log.js';

describe('a resource file whose plugin is switched off', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-unit-'));
    await mkdir(join(dir, 'workflows'));
    await mkdir(join(dir, 'mcpservers'));
    await writeFile(join(dir, 'config.yaml'), 'plugins:\n  workflows: false\n');
    await writeFile(join(dir, 'mcpservers', 'alpha.yaml'), 'name: alpha\ntype: stdio\ncommand: [node, alpha.js]\n');
    // Invalid on purpose: with its plugin off it is not read, so it cannot stop the start.
    await writeFile(join(dir, 'workflows', 'greet.yaml'), 'kind: Workflow\nspec: 3\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is left out with a warning naming the file and the plugin, and the rest loads', async () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'warn', sink: { write: (line) => lines.push(line) } });
    const snapshot = await Kernel.check({ plugins: BUILT_IN_PLUGINS, configPath: dir, log });
    expect([...snapshot.mcpServers.keys()]).to.deep.equal(['alpha']);
    expect(snapshot.workflows.size).to.equal(0);
    const warnings = lines.filter((l) => l.includes('greet.yaml'));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /WARN .*\[switchboard:store-files\] .*workflows\/greet\.yaml is ignored: no plugin that is on keeps resources in 'workflows\/'; config\.yaml switches off the plugin 'workflows'/,
    );
  });
});
