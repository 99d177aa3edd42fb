/**
 * Order statistics of small samples (a page's bubbles, a stroke's pixels), shared by the recognition
 * modules so each reads a quantile the same way.
 */

/** The `q` quantile of `values`: the value at floor(q × n) of them sorted (the largest for q = 1); 0 with none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((p, r) => p - r);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** The median of `values` (the upper one of an even count); 0 with none. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
