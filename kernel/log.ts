/**
 * Logs go to stderr, always: with the stdio transport stdout belongs to the MCP client.
 * One line per event, `level [scope] message`, so a person can read it and grep can filter it.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  child(scope: string): Logger;
}

export interface LogSink {
  write(line: string): void;
}

/** A logger whose every message passes through `scrub` first (secrets out of log lines). */
export function scrubbingLogger(inner: Logger, scrub: (text: string) => string): Logger {
  return {
    debug: (m) => inner.debug(scrub(m)),
    info: (m) => inner.info(scrub(m)),
    warn: (m) => inner.warn(scrub(m)),
    error: (m) => inner.error(scrub(m)),
    child: (scope) => scrubbingLogger(inner.child(scope), scrub),
  };
}

export function createLogger(options: { level?: Level; scope?: string; sink?: LogSink } = {}): Logger {
  // The environment may name no level at all: an unknown name means the default.
  const threshold = (RANK[options.level ?? (process.env.SWITCHBOARD_LOG_LEVEL as Level | undefined) ?? 'info'] as number | undefined) ?? RANK.info;
  const sink = options.sink ?? { write: (line: string) => process.stderr.write(line) };
  const scope = options.scope ?? 'switchboard';
  const emit = (level: Level, message: string): void => {
    if (RANK[level] < threshold) return;
    sink.write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${scope}] ${message}\n`);
  };
  return {
    debug: (m) => emit('debug', m),
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    child: (child) => createLogger({ ...options, scope: `${scope}:${child}`, sink }),
  };
}
