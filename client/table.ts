/** Aligned columns for people: a header, a rule, one row per item; long cells cut with an ellipsis. */
export function table(headers: string[], rows: string[][], maxCell = 60): string {
  const cut = (s: string) => {
    const one = s.replace(/\s+/g, ' ').trim();
    return one.length > maxCell ? `${one.slice(0, maxCell - 1)}…` : one;
  };
  const cells = rows.map((r) => r.map(cut));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}
