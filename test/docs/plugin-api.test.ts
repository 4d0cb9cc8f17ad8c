/**
 * docs/plugins.md (and docs/architecture.md) match the code: every hook the docs name exists
 * on the kernel with that name, every hook the kernel has is documented, every service named
 * is provided by the plugin the docs say provides it (by its declaration), and every name the
 * docs import from `switchboard/kernel` is exported there.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BUILT_IN_PLUGINS } from '../../app/built-in-plugins.js';
import * as publicApi from '../../kernel/index.js';
import { createHooks } from '../../kernel/hooks.js';
import { ROOT } from '../support/harness.js';

/** Rows of the markdown table that follows `heading`, as arrays of cells. */
function table(markdown: string, heading: string): string[][] {
  const at = markdown.indexOf(heading);
  expect(at, `docs/plugins.md has a section '${heading}'`).to.be.greaterThan(-1);
  const lines = markdown.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const names = (cell: string): string[] => [...cell.matchAll(/`([a-zA-Z-]+)/g)].map((m) => m[1]!);

describe('docs: the plugin API as documented is the plugin API in the code', () => {
  let doc: string;
  before(async () => {
    doc = await readFile(join(ROOT, 'docs', 'plugins.md'), 'utf8');
  });

  it('names exactly the kernel hooks', () => {
    const documented = table(doc, '## Hooks').flatMap((row) => names(row[0]!));
    expect([...new Set(documented)].sort()).to.deep.equal(Object.keys(createHooks()).sort());
  });

  it('says truly which plugin provides each service', async () => {
    const declared = new Map<string, string[]>();
    for (const b of BUILT_IN_PLUGINS) {
      for (const service of (await b.load()).default.provides ?? []) declared.set(service, [...(declared.get(service) ?? []), b.name]);
    }
    const rows = table(doc, '## Services');
    expect(rows.map((r) => names(r[0]!)[0]).sort()).to.deep.equal([...declared.keys()].sort());
    for (const row of rows) {
      const service = names(row[0]!)[0]!;
      expect(names(row[2]!).sort(), `provider of '${service}'`).to.deep.equal(declared.get(service)!.sort());
    }
  });

  it('architecture.md names only hooks, services and files that exist', async () => {
    const map = await readFile(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const hooks = Object.keys(createHooks());
    for (const [hook] of map.matchAll(/\bon[A-Z][A-Za-z]+\b/g)) expect(hooks, `hook ${hook}`).to.include(hook);
    const services = new Set<string>();
    for (const b of BUILT_IN_PLUGINS) for (const s of (await b.load()).default.provides ?? []) services.add(s);
    for (const [, service] of map.matchAll(/the `([a-z-]+)` service/g)) expect([...services], `service ${service!}`).to.include(service);
    const paths = [...map.matchAll(/`((?:kernel|lib|plugins|app|packages|client|test|bench|scripts|schemas|bin)\/[\w./-]+)`/g)].map((m) => m[1]!);
    expect(paths.length).to.be.greaterThan(20);
    for (const path of paths) expect(existsSync(join(ROOT, path)), `${path} exists`).to.equal(true);
  });

  it('imports, in its examples, only what switchboard/kernel exports', () => {
    for (const m of doc.matchAll(/import \{([^}]+)\} from 'switchboard\/kernel'/g)) {
      for (const name of m[1]!
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean))
        expect(publicApi, `switchboard/kernel exports ${name}`).to.have.property(name);
    }
  });
});
