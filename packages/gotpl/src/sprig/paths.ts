/**
 * sprig's path functions: Go's path package (base, dir, clean, ext, isAbs) and
 * path/filepath (osBase...), which on Linux, where Switchboard runs, are the same.
 */
import type { FunctionGroup } from './define.js';
import { fixed, S } from './define.js';

/** path.Clean: the shortest equivalent path, lexically. */
export function clean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return '/' + joined;
  return joined === '' ? '.' : joined;
}

function base(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  const i = p.lastIndexOf('/');
  if (i >= 0) p = p.slice(i + 1);
  return p === '' ? '/' : p;
}

function dir(p: string): string {
  return clean(p.slice(0, p.lastIndexOf('/') + 1));
}

function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const isAbs = (p: string): boolean => p.startsWith('/');

export const PATHS: FunctionGroup = {
  base: fixed([S], (a) => base(a[0] as string)),
  dir: fixed([S], (a) => dir(a[0] as string)),
  clean: fixed([S], (a) => clean(a[0] as string)),
  ext: fixed([S], (a) => ext(a[0] as string)),
  isAbs: fixed([S], (a) => isAbs(a[0] as string)),
  osBase: fixed([S], (a) => base(a[0] as string)),
  osDir: fixed([S], (a) => dir(a[0] as string)),
  osClean: fixed([S], (a) => clean(a[0] as string)),
  osExt: fixed([S], (a) => ext(a[0] as string)),
  osIsAbs: fixed([S], (a) => isAbs(a[0] as string)),
};
