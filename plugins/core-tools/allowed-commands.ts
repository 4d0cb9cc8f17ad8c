/**
 * runtimeServers.allowedCommands entries, compiled: a bare executable admits any arguments;
 * `{command, args}` pins them, each position a glob (lib/glob.ts: linear, no regular
 * expressions), the count exact unless the last pattern is `...`. The executable is compared
 * exactly as written (`npx`, not a base name), and the connection runs it from Switchboard's
 * PATH (lib/process/find-command.ts), so the name matched is the program started.
 */
import type { AllowedCommand, ConfigProblem, ParsedYaml, Settings } from '../../kernel/index.js';
import { compileGlob, GlobSyntaxError, type Glob } from '../../lib/glob.js';

/** The last argument pattern that admits any further arguments. */
export const ANY_FURTHER = '...';

/**
 * Executables that run whatever code their arguments name (`node -e`, `python -c`, `npx -c`,
 * `uvx --from git+...`): admitting one with any arguments admits any program.
 */
const CODE_RUNNERS =
  /^(node|nodejs|deno|bun|bunx|npx|npm|pnpm|pnpx|yarn|uvx|uv|pipx|pip|pip3|python[0-9.]*|pypy[0-9.]*|ruby|perl|php|lua|bash|sh|dash|zsh|ksh|fish|env|java|go|osascript|powershell|pwsh|cmd|docker|podman)$/;

interface Compiled {
  command: string;
  /** undefined: any arguments. */
  args?: Glob[];
  /** Whether arguments past `args` are admitted (`...` last). */
  further: boolean;
  /** The entry as a person reads it: `npx -y @scope/server-* ...`. */
  shown: string;
}

export type CommandVerdict = { allowed: true } | { allowed: false; reason: string };

function show(entry: AllowedCommand): string {
  return typeof entry === 'string' ? entry : [entry.command, ...entry.args].join(' ');
}

function compile(entry: AllowedCommand): Compiled {
  if (typeof entry === 'string') return { command: entry, further: true, shown: show(entry) };
  const further = entry.args.at(-1) === ANY_FURTHER;
  const patterns = further ? entry.args.slice(0, -1) : entry.args;
  return { command: entry.command, args: patterns.map((p) => compileGlob(p, true)), further, shown: show(entry) };
}

const compiledBySettings = new WeakMap<readonly AllowedCommand[], Compiled[]>();

function compiledEntries(entries: readonly AllowedCommand[]): Compiled[] {
  let c = compiledBySettings.get(entries);
  if (!c) compiledBySettings.set(entries, (c = entries.map(compile)));
  return c;
}

/** Why `entry` refuses `args` (the arguments after the executable), or undefined when it admits them. */
function mismatch(entry: Compiled, args: readonly string[]): string | undefined {
  if (!entry.args) return undefined;
  for (let i = 0; i < entry.args.length; i++) {
    if (i >= args.length) return `it has ${args.length} argument(s) where '${entry.shown}' needs ${entry.args.length}${entry.further ? ' or more' : ''}`;
    if (!entry.args[i]!.test(args[i]!)) return `argument ${i + 1} does not match '${entry.shown}'`;
  }
  if (args.length > entry.args.length && !entry.further) return `it has ${args.length} arguments where '${entry.shown}' takes exactly ${entry.args.length}`;
  return undefined;
}

/** Whether the command line `argv` (executable first) is one `entries` admit, and if not why. */
export function matchCommandLine(entries: readonly AllowedCommand[], argv: readonly string[]): CommandVerdict {
  const [executable, ...args] = argv;
  const same = compiledEntries(entries).filter((e) => e.command === executable);
  if (same.length === 0) {
    return { allowed: false, reason: `the command '${executable ?? ''}' is not one a server created through Switchboard may start` };
  }
  const reasons: string[] = [];
  for (const entry of same) {
    const why = mismatch(entry, args);
    if (why === undefined) return { allowed: true };
    reasons.push(why);
  }
  // The argument values are the caller's own; the reason names positions, not values.
  return { allowed: false, reason: `the command '${executable}' is admitted only with pinned arguments: ${reasons.join('; ')}` };
}

/** How the list reads in a refusal: `[node, npx -y @scope/server-* ...]` (a bare executable takes any arguments). */
export function shownEntries(entries: readonly AllowedCommand[]): string {
  return `[${entries.map(show).join(', ')}]`;
}

/** Settings check: a `...` that is not last, or an argument pattern that does not parse, named where it is. */
export function allowedCommandProblems(settings: Settings, parsed: Pick<ParsedYaml, 'file' | 'locate'>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  (settings.runtimeServers.allowedCommands ?? []).forEach((entry, i) => {
    if (typeof entry === 'string') return;
    entry.args.forEach((pattern, j) => {
      const path = ['runtimeServers', 'allowedCommands', i, 'args', j];
      const where = { file: parsed.file, ...parsed.locate(path), field: path.join('.') };
      if (pattern === ANY_FURTHER && j !== entry.args.length - 1) {
        problems.push({ ...where, message: `'${ANY_FURTHER}' (any further arguments) must be the last argument pattern` });
        return;
      }
      try {
        compileGlob(pattern, true);
      } catch (err) {
        if (!(err instanceof GlobSyntaxError)) throw err;
        problems.push({ ...where, message: err.message });
      }
    });
  });
  return problems;
}

/** Bare entries (any arguments) for an executable that runs the code its arguments name: `switchboard check` and startup warn. */
export function unpinnedCodeRunners(settings: Pick<Settings, 'runtimeServers'>): string[] {
  return (settings.runtimeServers.allowedCommands ?? [])
    .filter((e): e is string => typeof e === 'string')
    .filter((e) =>
      CODE_RUNNERS.test(
        e
          .split('/')
          .at(-1)!
          .replace(/\.(exe|cmd|bat)$/i, ''),
      ),
    );
}

/** The warning for one such entry. */
export function unpinnedWarning(executable: string): string {
  return `runtimeServers.allowedCommands: '${executable}' is admitted with any arguments, and it runs whatever code they name (say '${executable} -e'/'-c' or a package to fetch): whoever may create servers can run any program on this host; pin its arguments ({command: ${executable}, args: [...]})`;
}
