/** How a Redis URL appears in logs, errors and /health: scheme, host, port and database, never credentials. */
export function describeRedisUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an invalid Redis URL)';
  }
  const database = parsed.pathname.length > 1 ? parsed.pathname : '';
  return `${parsed.protocol}//${parsed.host}${database}`;
}
