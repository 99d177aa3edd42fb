/**
 * A scanner streak through the sheet's QR (issue 18). A dark column of the scanner's glass runs the
 * length of the page; where it crosses a finder pattern or the quiet zone beside one, the reader no
 * longer finds the symbol and the page cannot be filed. The streak is dark far above and below the
 * symbol too, where the page is paper: its columns are found there (darkColumns, as the bubble reader
 * finds streaks) and painted over, row by row, its left half from the column left of it and its right
 * half from the column right of it (a module's edge under it comes back within half the streak's width;
 * a blend would leave a grey band that breaks a finder pattern's proportions). A module the streak
 * hides whole stays wrong: the symbol's error correction repairs that.
 */
import { darkColumns } from './bubble-reader';
import { histogram, percentile, type GreyImage } from './grey-image';

/** Columns are looked at over this many times the box's height, centred on it (clipped to the image). */
const SPAN_OF_BOX = 3;
/** A streak's column is darker than this share of the paper's grey. */
const STREAK_OF_PAPER = 0.75;
/** Pixels either side of a streak painted over with it (its blurred edges). */
const EDGE_PX = 1;

export type PixelRect = { x0: number; y0: number; x1: number; y1: number };

/**
 * A copy of the image with the dark streaks that cross `box` painted over inside it (each row of a
 * streak's columns from the pixels just left and right of it), or null when no streak crosses it.
 */
export function qrStreaksCleared(img: GreyImage, box: PixelRect): GreyImage | null {
  const left = Math.max(0, Math.floor(box.x0));
  const right = Math.min(img.width - 1, Math.ceil(box.x1));
  const top = Math.max(0, Math.floor(box.y0));
  const bottom = Math.min(img.height - 1, Math.ceil(box.y1));
  if (right <= left || bottom <= top) return null;
  const paper = percentile(histogram(img, left, top, right, bottom, 3), 0.9);
  const bands = darkColumns(img, left, right, (top + bottom) / 2, SPAN_OF_BOX * (bottom - top), STREAK_OF_PAPER * paper);
  if (bands.length === 0) return null;
  const data = Uint8Array.from(img.data);
  for (const [from, to] of bands) {
    const a = Math.max(0, from - EDGE_PX - 1);
    const b = Math.min(img.width - 1, to + EDGE_PX + 1);
    for (let y = top; y <= bottom; y += 1) {
      const row = y * img.width;
      const va = data[row + a] as number;
      const vb = data[row + b] as number;
      for (let x = a + 1; x < b; x += 1) data[row + x] = 2 * (x - a) < b - a ? va : vb;
    }
  }
  return { data, width: img.width, height: img.height };
}
