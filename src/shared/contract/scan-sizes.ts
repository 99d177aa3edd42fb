/**
 * The scan resize targets of spec §5, apart from contract/scan.ts (which re-exports them) because that
 * module builds zod schemas: the image pipeline's worker needs these sizes and nothing of zod.
 */
import type { PaperSizeCode } from './scan';

export type PixelSize = { width: number; height: number };

/**
 * Resize targets of spec §5 by paper size code; null = left as scanned. A code not listed here (a
 * scanner may report another size) resizes to {@link OTHER_RESIZE_TARGET}.
 */
export const RESIZE_TARGETS: Readonly<Record<PaperSizeCode, PixelSize | null>> = {
  1: { width: 2480, height: 3507 },
  0: { width: 2184, height: 3072 },
  2: null,
  6: null,
  11: null,
};
export const OTHER_RESIZE_TARGET: PixelSize = { width: 2079, height: 2954 };
