/**
 * The last lines a stdio server wrote on stderr, kept whatever `stderrLogLevel` logs, for the
 * admin UI's server page: why a server misbehaves is usually there. Bounded in lines and in
 * line length, so a chatty server costs at most about STDERR_LINES * STDERR_LINE_CHARS.
 */
export const STDERR_LINES = 200;
export const STDERR_LINE_CHARS = 1000;

export class StderrTail {
  private readonly kept: string[] = [];

  push(line: string): void {
    this.kept.push(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line);
    if (this.kept.length > STDERR_LINES) this.kept.splice(0, this.kept.length - STDERR_LINES);
  }

  lines(): string[] {
    return [...this.kept];
  }
}
