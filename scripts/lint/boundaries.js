/**
 * ESLint rule: the architecture's import boundaries (docs/architecture.md), checked on the
 * resolved path of every relative import, so `../../kernel/x.js` and `../kernel/x.js` are the
 * same thing wherever the importing file sits.
 *
 *   kernel/            imports only kernel/
 *   lib/               kernel/index.js and lib/
 *   packages/<name>/   only its own folder
 *   plugins/<name>/    kernel/index.js, lib/, its own folder (and '#gotpl')
 *   client/            kernel/index.js, lib/
 *   app/, test/, bench/, examples/: anything (the composition root and its checks)
 *
 * '#mcp-sdk/*' (packages/mcp-sdk) is the MCP SDK package itself, re-exported to be bundled at
 * build: any area imports it as it would import the SDK by name.
 */
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The area a repository path belongs to: ['plugins', 'upstreams'], ['kernel'], ... */
function areaOf(path) {
  const [top, second] = relative(ROOT, path).split(sep);
  return top === 'plugins' || top === 'packages' ? [top, second] : [top];
}

const PUBLIC_KERNEL = 'kernel/index.ts';

/** Why `from` may not import `to` (both repository-relative, .ts), or undefined when it may. */
function refusal(from, to) {
  const [fromTop, fromName] = areaOf(resolve(ROOT, from));
  const [toTop, toName] = areaOf(resolve(ROOT, to));
  const own = fromTop === toTop && fromName === toName;
  switch (fromTop) {
    case 'kernel':
      return toTop === 'kernel' ? undefined : `the kernel imports nothing outside kernel/ (here: ${to})`;
    case 'packages':
      return own ? undefined : `a package imports nothing outside its own folder (here: ${to})`;
    case 'lib':
    case 'client':
    case 'plugins':
      if (own || toTop === 'lib') return undefined;
      if (to === PUBLIC_KERNEL) return undefined;
      if (toTop === 'kernel') return `reach the kernel through its public API, kernel/index.js (not ${to})`;
      if (toTop === 'plugins') return `a plugin never imports another plugin: use a service or a hook (here: ${to})`;
      return `${fromTop}/ may not import ${to}`;
    default:
      return undefined;
  }
}

export default {
  meta: { type: 'problem', docs: { description: 'Import boundaries between kernel, lib, packages, plugins and client' }, schema: [] },
  create(context) {
    const file = relative(ROOT, context.filename);
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(ROOT, resolve(dirname(context.filename), source)).replace(/\.js$/, '.ts');
      const why = refusal(file, target);
      if (why) context.report({ node, message: why });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
