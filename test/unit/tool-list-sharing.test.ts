/**
 * What a connection keeps of an upstream's tools/list (plugins/upstreams/tool-list.ts): each
 * tool as parsed, with what repeats across tools and servers held once. Measured as a user of
 * a large catalogue would see it, in the heap of a process of its own (`--expose-gc`, so the
 * figure is what stays live, not what a collection has yet to free).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const urlOf = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);

/** Heap the kept page costs: `tools` tools over `distinct` descriptions of `length` characters. */
async function heapKept(tools: number, distinct: number, length: number): Promise<{ grewBytes: number; descriptions: string[] }> {
  const script = `
    import { listToolsPage } from ${urlOf('../../plugins/upstreams/tool-list.js')};
    import { SecretScrubber } from ${urlOf('../../kernel/secrets/scrubber.js')};
    import { createLogger } from ${urlOf('../../kernel/log.js')};
    const texts = Array.from({ length: ${distinct} }, (_, i) => (i + ': ' + 'all of this tool\\'s words. '.repeat(${length})).slice(0, ${length}));
    const wire = JSON.stringify({ tools: Array.from({ length: ${tools} }, (_, i) => ({ name: 't' + i, description: texts[i % ${distinct}], inputSchema: { type: 'object' } })) });
    const log = createLogger({ level: 'error', sink: { write() {} } });
    gc(); gc();
    const before = process.memoryUsage().heapUsed;
    const page = await listToolsPage(async () => JSON.parse(wire), undefined, log, new SecretScrubber());
    gc(); gc();
    const grewBytes = process.memoryUsage().heapUsed - before;
    const descriptions = [...new Set(page.tools.map((t) => t.description))];
    process.stdout.write(JSON.stringify({ grewBytes, descriptions: descriptions.map((d) => d.slice(0, 12) + '|' + d.length) }));
  `;
  const { stdout } = await run(process.execPath, ['--expose-gc', '--input-type=module', '-e', script]);
  return JSON.parse(stdout) as { grewBytes: number; descriptions: string[] };
}

describe('an upstream tool list as a connection keeps it', function () {
  this.timeout(60_000);

  it('holds a description that many tools repeat once, not once per tool', async () => {
    // 4,000 tools over 4 texts of 2,500 characters: 10 MB as separate strings.
    const { grewBytes, descriptions } = await heapKept(4000, 4, 2500);
    expect(descriptions).to.have.length(4);
    expect(descriptions.every((d) => d.endsWith('|2500'))).to.equal(true);
    expect(grewBytes).to.be.below(3 * 1024 * 1024);
  });

  it('keeps every distinct description whole', async () => {
    const { descriptions } = await heapKept(300, 300, 400);
    expect(descriptions).to.have.length(300);
    expect(descriptions[299]).to.equal('299: all of |400');
  });
});
