/** Reconnect delays: initial, doubling, capped, with ±20 % jitter so many servers don't retry in step. */
export function backoffDelayMs(attempt: number, initialSeconds: number, maxSeconds: number, random: () => number = Math.random): number {
  const base = Math.min(initialSeconds * 2 ** Math.max(0, attempt), maxSeconds) * 1000;
  const jitter = 1 + (random() * 0.4 - 0.2);
  return Math.max(1, Math.round(Math.min(base * jitter, maxSeconds * 1000)));
}
