import { plainText } from '../../shared/ui/plain-text';

/** Options per row: short options share a row, long ones get their own. */
export function optionColumns(options: readonly string[]): 1 | 2 | 4 {
  const longest = Math.max(0, ...options.map((o) => plainText(o).length));
  if (longest <= 8) return 4;
  if (longest <= 20) return 2;
  return 1;
}
