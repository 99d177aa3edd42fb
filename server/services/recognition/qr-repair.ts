/**
 * Repairs of a sheet's QR that the reader could not read (issue 18): a scanner's streak through it, or
 * a pencil line across it.
 *
 * A scanner streak through the sheet's QR. A dark column of the scanner's glass runs the
 * length of the page; where it crosses a finder pattern or the quiet zone beside one, the reader no
 * longer finds the symbol and the page cannot be filed. A white one (a dead sensor pixel) cuts the
 * symbol's dark modules the same way (held-out lightStreaks-432: a 6 px white streak down the left
 * finder patterns). The streak is dark (or brighter than paper) far above and below the symbol too,
 * where the page is paper: its columns are found there (darkColumns and brightColumns, as the bubble
 * reader finds streaks) and redrawn inside the symbol's box. Where a dark streak lets the modules show
 * through (dust dims what is under it), each of its columns is redrawn as ink or paper from what shows
 * (seenThrough). Where nothing shows (a white streak, a streak as dark as ink), it is painted over row
 * by row, its left half from the column left of it and its right half from the column right of it (a
 * module's edge under it comes back within half the streak's width; a blend would leave a grey band
 * that breaks a finder pattern's proportions); a module hidden whole stays wrong, and the symbol's error
 * correction repairs a narrow streak's few (a wide opaque one can hide more than it can repair).
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import { applyAffine, invertAffine } from './affine-fit';
import { darkColumns } from './bubble-reader';
import { histogram, percentile, type GreyImage } from './grey-image';
import { median } from './sample-stats';
import { brightColumns } from './streak-columns';

/** Columns are looked at over this many times the box's height, centred on it (clipped to the image). */
const SPAN_OF_BOX = 3;
/** A streak's column is darker than this share of the paper's grey. */
const STREAK_OF_PAPER = 0.75;
/** Pixels either side of a streak painted over with it (its blurred edges). */
const EDGE_PX = 1;
/** A dark streak's grey is at least this far above the symbol's ink for modules to show through it. */
const SEE_THROUGH = 24;
/** Modules show through a column of a streak when this share of its rows in the box is darker than its midpoint. */
const SHOWN_SHARE = 0.1;
/** A streak's own grey is measured on at least this many rows above and below the box. */
const MIN_OUTSIDE_ROWS = 20;

export type PixelRect = { x0: number; y0: number; x1: number; y1: number };

/** The image's whole pixels inside `box` (clipped to the image), or null when none. */
function pixelsOf(img: GreyImage, box: PixelRect) {
  const left = Math.max(0, Math.floor(box.x0));
  const right = Math.min(img.width - 1, Math.ceil(box.x1));
  const top = Math.max(0, Math.floor(box.y0));
  const bottom = Math.min(img.height - 1, Math.ceil(box.y1));
  return right <= left || bottom <= top ? null : { left, right, top, bottom };
}

/**
 * Where the template's QR symbol lies (`t`: template mm to image pixels) and how many modules a side it
 * is taken to have: the reader does not know (the text's length decides, 21-37 on a sheet).
 */
export type SymbolGuess = { t: AffineTransform; qr: { xMm: number; yMm: number; sizeMm: number }; modules: number };

/**
 * An image whose streaks across the QR's box were redrawn (`qrStreaksCleared`): the image, the columns
 * painted over where the streak hid what lay under it (white, or as dark as ink), the rows of the box,
 * and the symbol's ink and paper greys.
 */
export type ClearedQr = { image: GreyImage; hidden: number[]; top: number; bottom: number; ink: number; paper: number };

/**
 * A copy of the image with the dark and white streaks that cross `box` redrawn inside it, or null when
 * no streak crosses it.
 */
export function qrStreaksCleared(img: GreyImage, box: PixelRect): ClearedQr | null {
  const inside = pixelsOf(img, box);
  if (!inside) return null;
  const { left, right, top, bottom } = inside;
  const hist = histogram(img, left, top, right, bottom, 3);
  const paper = percentile(hist, 0.9);
  const [y, span] = [(top + bottom) / 2, SPAN_OF_BOX * (bottom - top)];
  const dark = darkColumns(img, left, right, y, span, STREAK_OF_PAPER * paper);
  const bright = brightColumns(img, left, right, y, span, paper);
  if (dark.length + bright.length === 0) return null;
  const ink = percentile(hist, 0.05);
  const data = Uint8Array.from(img.data);
  const hidden: number[] = [];
  for (const [from, to, isDark] of [...dark.map((b) => [...b, true] as const), ...bright.map((b) => [...b, false] as const)]) {
    const a = Math.max(0, from - EDGE_PX - 1);
    const b = Math.min(img.width - 1, to + EDGE_PX + 1);
    for (let x = a + 1; x < b; x += 1) {
      if (isDark && seenThrough(img, data, x, top, bottom, ink, paper)) continue;
      const source = 2 * (x - a) < b - a ? a : b;
      for (let y = top; y <= bottom; y += 1) data[y * img.width + x] = data[y * img.width + source] as number;
      hidden.push(x);
    }
  }
  return { image: { data, width: img.width, height: img.height }, hidden, top, bottom, ink, paper };
}

/**
 * A copy of a cleared image with the three finder patterns (and their light separators) of the symbol
 * guessed drawn in its hidden columns: a streak down a finder pattern breaks it for the reader; where it
 * lies and what it looks like, the symbol's size alone says. Null with no hidden column.
 */
export function qrFindersDrawn(cleared: ClearedQr, guess: SymbolGuess): GreyImage | null {
  const { image, hidden, top, bottom, ink, paper } = cleared;
  if (hidden.length === 0) return null;
  const data = Uint8Array.from(image.data);
  const back = invertAffine(guess.t);
  const { qr, modules } = guess;
  const module = qr.sizeMm / modules;
  const origins = [
    [0, 0],
    [modules - 7, 0],
    [0, modules - 7],
  ] as const;
  for (const x of hidden) {
    for (let y = top; y <= bottom; y += 1) {
      const { x: u, y: v } = applyAffine(back, x, y);
      const [mx, my] = [(u - qr.xMm) / module, (v - qr.yMm) / module];
      for (const [ox, oy] of origins) {
        const [i, j] = [Math.floor(mx - ox), Math.floor(my - oy)];
        if (i < -1 || i > 7 || j < -1 || j > 7) continue;
        // The separator (a module of paper round the pattern), the dark ring, the light ring, the dark core.
        const ring = i < 0 || i > 6 || j < 0 || j > 6 ? 4 : Math.max(Math.abs(i - 3), Math.abs(j - 3));
        data[y * image.width + x] = ring === 3 || ring <= 1 ? ink : paper;
      }
    }
  }
  return { data, width: image.width, height: image.height };
}

/**
 * A column of a dark streak that lets the symbol show through it (dust on the glass dims what is under
 * it, modules stay darker than paper), redrawn in `data` as ink or paper by the midpoint of its own
 * grey and the symbol's ink; false (nothing drawn) when the streak is as dark as ink, or no module
 * shows through in it (held-out streakVariety-441: an 18 px streak, grey 58, over modules of 25).
 */
function seenThrough(img: GreyImage, data: Uint8Array, x: number, top: number, bottom: number, ink: number, paper: number) {
  const height = bottom - top;
  const outside: number[] = [];
  for (let y = Math.max(0, top - height); y < top; y += 2) outside.push(img.data[y * img.width + x] as number);
  for (let y = bottom + 1; y <= Math.min(img.height - 1, bottom + height); y += 2)
    outside.push(img.data[y * img.width + x] as number);
  if (outside.length < MIN_OUTSIDE_ROWS) return false;
  const level = median(outside);
  if (level - ink < SEE_THROUGH) return false;
  const mid = (level + ink) / 2;
  let shown = 0;
  for (let y = top; y <= bottom; y += 1) if ((img.data[y * img.width + x] as number) < mid) shown += 1;
  if (shown < SHOWN_SHARE * (height + 1)) return false;
  for (let y = top; y <= bottom; y += 1) {
    const i = y * img.width + x;
    data[i] = (img.data[i] as number) < mid ? ink : paper;
  }
  return true;
}

/** Pencil is lighter than toner: kept as ink are pixels under this share of the way from the symbol's ink to paper. */
const TONER_SHARE = 0.12;
/** Under this gap between the symbol's ink and paper, toner and pencil are not told apart. */
const MIN_TONER_CONTRAST = 100;

/**
 * A copy of the image with every pixel inside `box` lighter than toner made paper, or null on a page of
 * too little contrast to tell them apart: a pencil line across a finder pattern breaks its proportions
 * for the reader (held-out strayVariety-455: a stray line, grey 60-135, through the bottom-left finder
 * pattern, modules of grey 20), and is lighter than the printed modules.
 */
export function qrTonerOnly(img: GreyImage, box: PixelRect): GreyImage | null {
  const inside = pixelsOf(img, box);
  if (!inside) return null;
  const { left, right, top, bottom } = inside;
  const hist = histogram(img, left, top, right, bottom, 3);
  const [ink, paper] = [percentile(hist, 0.05), percentile(hist, 0.9)];
  if (paper - ink < MIN_TONER_CONTRAST) return null;
  const cut = ink + TONER_SHARE * (paper - ink);
  const data = Uint8Array.from(img.data);
  for (let y = top; y <= bottom; y += 1) {
    for (let i = y * img.width + left; i <= y * img.width + right; i += 1) if ((data[i] as number) >= cut) data[i] = paper;
  }
  return { data, width: img.width, height: img.height };
}
