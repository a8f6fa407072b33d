/** Exponential back-off with jitter for reconnects: 0.5 s doubling up to 30 s. */
export function backoffDelay(attempt: number, random: () => number = Math.random, base = 500, cap = 30_000): number {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() / 2));
}
