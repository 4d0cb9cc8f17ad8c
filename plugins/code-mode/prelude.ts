/**
 * The JavaScript a sandbox runs before the script: it builds, inside QuickJS, the API the
 * script sees (`tools`, `console`, `parallel`) from two host functions it receives as
 * arguments and keeps to itself (no global names them, so the script cannot reach or
 * replace them). Everything the host functions take and give is a string: the prelude
 * stringifies arguments and parses answers with JSON functions it captured before the script
 * ran, so a script that redefines JSON or Object.prototype spoils only its own values.
 *
 * Evaluated to a function `(host, log, namesJson) => [run, format]`: `run(code)` compiles the
 * script as an async function body and calls it (its promise, which the host looks at before
 * any job runs: sandbox-worker.ts); `format(promise)` resolves to the returned value as JSON
 * text.
 */
export const PRELUDE = String.raw`(function (host, log, namesJson) {
  'use strict';
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const own = (o, p) => Object.prototype.hasOwnProperty.call(o, p);
  const names = new Set(parse(namesJson));
  class ToolError extends Error {
    constructor(error, tool) {
      super(String(error && error.message));
      this.name = 'ToolError';
      this.code = String(error && error.code);
      this.tool = tool;
    }
  }
  const ask = async (op, name, args) => {
    if (typeof name !== 'string') throw new TypeError(op + ': the first argument must be a string');
    const text = args === undefined ? '{}' : stringify(args);
    if (typeof text !== 'string') throw new TypeError(op + ': arguments must be a JSON object');
    const answer = parse(await host(op, name, text));
    if (!answer.ok) throw new ToolError(answer.error, name);
    return answer.value;
  };
  const api = Object.freeze({
    call: (name, args) => ask('call', name, args === undefined ? {} : args),
    search: (query, limit) => ask('search', String(query), { limit: limit === undefined ? 10 : limit }),
    describe: (name) => ask('describe', name, {}),
    list: () => Array.from(names),
  });
  const callers = new Map();
  const caller = (name) => {
    let f = callers.get(name);
    if (!f) callers.set(name, (f = (args) => ask('call', name, args === undefined ? {} : args)));
    return f;
  };
  const tools = new Proxy(api, {
    get: (t, p) => (typeof p !== 'string' ? undefined : own(t, p) ? t[p] : names.has(p) ? caller(p) : undefined),
    has: (t, p) => own(t, p) || names.has(p),
    ownKeys: (t) => Reflect.ownKeys(t).concat(Array.from(names)),
    getOwnPropertyDescriptor: (t, p) =>
      own(t, p) ? Reflect.getOwnPropertyDescriptor(t, p) : names.has(p) ? { value: caller(p), writable: false, enumerable: true, configurable: true } : undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
    setPrototypeOf: () => false,
  });
  const show = (v) => {
    if (typeof v === 'string') return v;
    try {
      const s = stringify(v);
      return s === undefined ? String(v) : s;
    } catch (e) {
      return String(v);
    }
  };
  const writer = (level) => (...args) => log((level ? level + ': ' : '') + args.map(show).join(' '));
  const console = Object.freeze({ log: writer(''), info: writer('info'), debug: writer('debug'), warn: writer('warn'), error: writer('error') });
  const parallel = async (items, limit) => {
    if (!Array.isArray(items)) throw new TypeError('parallel: expects an array of functions or promises');
    const out = new Array(items.length);
    const width = Math.max(1, Math.min(items.length, limit === undefined ? items.length : Math.floor(limit)));
    let next = 0;
    const lane = async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i];
        out[i] = await (typeof item === 'function' ? item() : item);
      }
    };
    const lanes = [];
    for (let i = 0; i < width; i++) lanes.push(lane());
    await Promise.all(lanes);
    return out;
  };
  const AsyncFunction = (async function () {}).constructor;
  const run = (code) => new AsyncFunction('tools', 'console', 'parallel', code)(tools, console, parallel);
  const format = (ran) =>
    ran.then((value) => {
      const text = stringify(value === undefined ? null : value);
      return text === undefined ? 'null' : text;
    });
  return [run, format];
})`;
