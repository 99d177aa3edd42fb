/**
 * Marks drawn as strokes: a tick, a cross, a dot of a ballpoint or a pencil in a bubble instead of a
 * fill. A thin stroke darkens only a tenth or so of a bubble, under the page's usual gap between its
 * empty bubbles and its fills, so the page threshold may miss it or put it barely above its floor. What
 * tells a stroke from what else leaves a little ink in a bubble is its structure:
 * - its ink stands clear above the empty bubbles of the same printed letter (the letter, darker on a
 *   contrasty scan, is in each of them), on a page whose empty bubbles are alike;
 * - the paper between its strokes stays paper: what a rubber leaves is grey all over, with the odd
 *   pixel past the ink level;
 * - its ink is in pieces of a stroke, not the scattered specks a 1-bit scanner keeps of faint pencil;
 * - it is not one straight stroke (a stray pencil line, an arc of the printed outline): a tick has two
 *   arms, a cross two bars, a dot is round.
 * Bubbles a line or a streak runs through are read by their own rules and never taken as strokes here.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import type { Bubble } from '../../../src/shared/contract/answer-sheet';
import { pixelBox, type GreyImage } from './grey-image';
import { median } from './sample-stats';

/**
 * A stroke mark's ink rises at least this share of the inside above the empty bubbles of its letter:
 * a ballpoint tick of 0.25 mm at half the bubble's size covers about 0.08; a dust speck under 0.02.
 * From there its confidence climbs to certain over `STROKE_INK_SPAN`.
 */
export const STROKE_MIN_INK = 0.045;
export const STROKE_INK_SPAN = 0.03;
/** And at least this many robust spreads of the page's empty ink: the empty bubbles are alike, the stroke stands apart. */
export const STROKE_MIN_SPREADS = 8;
/**
 * The paper between a stroke mark's strokes rises at most this much (paper 0, toner 1) above the empty
 * bubbles of its letter: a stroke's blurred edge adds under 0.09; what a rubber leaves (grey 150-220)
 * 0.12 and more.
 */
export const STROKE_CLEAN_REST = 0.09;
/**
 * A stroke's ink pixels are on average this dark (paper 0, toner 1): well past the ink level (0.5),
 * where a grey only just crossing it (a rubber's, a smudge) is not.
 */
export const STROKE_MIN_DEPTH = 0.55;
/**
 * Ink in pieces of at least this share of the inside on average (about 0.05 mm², a 0.25 mm stroke
 * 0.2 mm long): a stroke broken by a JPEG is a few such pieces; the speckle of a 1-bit scan many
 * smaller ones. Up to `FEW_PIECES` pieces are never held against it.
 */
export const STROKE_MIN_PIECE = 0.007;
const FEW_PIECES = 2;
/**
 * One straight stroke: the ink's spread across its main direction is under this share of its spread
 * along it (a 0.5 mm line over a 5 mm bubble is 0.1; a tick's arms or a cross's bars, or a dot, much
 * more). Such a stroke may be a stray pencil line, not an answer.
 */
export const STRAIGHT_RATIO = 0.25;
/**
 * Two bars crossing: the ink's spread across its main direction is at least this share of its spread
 * along it (an X or a + of equal bars is near 1, a tick 0.3 to 0.5, one straight line under 0.25).
 * A cross whose bars run out of the bubble shows ink on the paper around it as a line through it would;
 * a stray line through an empty bubble leaves one straight stroke inside, never two bars.
 */
export const CROSS_RATIO = 0.6;
/** Empty bubbles of one letter needed for its own level; fewer, and the page's empty level is used. */
const LETTER_MIN_PEERS = 3;
/** The lowest confidence a stroke mark is given (under LOW_CONFIDENCE: a person sees it). */
const STROKE_DOUBT_FLOOR = 0.3;

/** What a bubble's stroke reading needs of its measures. */
export type StrokeMeasure = {
  label: string;
  fill: number;
  ink: number;
  inkDepth: number;
  specks: number;
  line: boolean;
  crossed: boolean;
  streak: boolean;
};

/**
 * Mean darkness of a bubble's inside without its ink pixels: the paper between the strokes. The fill
 * is the mean over all of the inside, ink pixels at `inkDepth` and the rest at this.
 */
export function restFill(b: Pick<StrokeMeasure, 'fill' | 'ink' | 'inkDepth'>): number {
  if (b.ink >= 1) return b.fill;
  return Math.max(0, (b.fill - b.ink * b.inkDepth) / (1 - b.ink));
}

/** The empty level of each printed letter: median ink and fill of its clearly empty bubbles. */
export function letterLevels(
  empty: readonly Pick<StrokeMeasure, 'label' | 'fill' | 'ink'>[],
): Map<string, { ink: number; fill: number }> {
  const byLabel = new Map<string, { ink: number[]; fill: number[] }>();
  for (const b of empty) {
    const peers = byLabel.get(b.label) ?? { ink: [], fill: [] };
    peers.ink.push(b.ink);
    peers.fill.push(b.fill);
    byLabel.set(b.label, peers);
  }
  const levels = new Map<string, { ink: number; fill: number }>();
  for (const [label, peers] of byLabel) {
    if (peers.ink.length >= LETTER_MIN_PEERS) levels.set(label, { ink: median(peers.ink), fill: median(peers.fill) });
  }
  return levels;
}

/**
 * How alike the empty bubbles of each letter are: the robust spread (interquartile range over 1.349) of
 * their ink about their letter's level (`letterLevels`). The page's empty spread also holds the
 * differences between its letters' glyphs (a contrasty scan darkens a B more than a C); 0 with no letter
 * known.
 */
export function letterSpread(
  empty: readonly Pick<StrokeMeasure, 'label' | 'ink'>[],
  letters: ReadonlyMap<string, { ink: number }>,
): number {
  const residuals = empty.flatMap((b) => {
    const letter = letters.get(b.label);
    return letter ? [b.ink - letter.ink] : [];
  });
  if (residuals.length === 0) return 0;
  const sorted = residuals.sort((p, q) => p - q);
  const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] as number;
  return (at(0.75) - at(0.25)) / 1.349;
}

/**
 * The page's empty bubbles as the stroke rule sees them: the empty ink level and spread, each letter's
 * levels, and the spread of the empty bubbles about their letter's level (`letterSpread`).
 */
export type StrokeContext = {
  emptyInk: { level: number; spread: number };
  emptyFill: { level: number };
  letters: Map<string, { ink: number; fill: number }>;
  letterSpread: number;
};

/**
 * Whether an empty-read bubble holds a dark stroke of pen or pencil, whatever its shape: its ink pixels
 * are stroke-dark (`STROKE_MIN_DEPTH`) and rise above the empty bubbles of its letter (for a letter
 * with too few, the darkest letter's, or the page's) by `STROKE_MIN_INK` and `STROKE_MIN_SPREADS` of
 * their spread about their letter's level. Weaker than `strokeEvidence`, which a mark must pass: the
 * page's spread there also holds the differences between letters, and a stroke under it is not proven
 * a mark, nor paper.
 */
export function darkStrokeInk(b: StrokeMeasure, page: StrokeContext): boolean {
  if (b.line || b.crossed || b.streak || b.inkDepth < STROKE_MIN_DEPTH) return false;
  // A letter with too few empty bubbles of its own may be as dark as the darkest known one.
  const known = [...page.letters.values()].map((l) => l.ink);
  const letter = page.letters.get(b.label)?.ink ?? Math.max(page.emptyInk.level, ...known);
  return b.ink - letter >= Math.max(STROKE_MIN_INK, STROKE_MIN_SPREADS * page.letterSpread);
}

/**
 * Whether a bubble's ink has the structure of a stroke mark (see the module's comment), all but its
 * shape (`strokeShape`, which needs the pixels again), and how sure: null when it is no stroke mark,
 * else its confidence from how far its ink rises above its letter's empty level.
 */
export function strokeEvidence(b: StrokeMeasure, page: StrokeContext): number | null {
  if (b.line || b.crossed || b.streak) return null;
  const letter = page.letters.get(b.label) ?? { ink: page.emptyInk.level, fill: page.emptyFill.level };
  const rise = b.ink - letter.ink;
  if (rise < Math.max(STROKE_MIN_INK, STROKE_MIN_SPREADS * page.emptyInk.spread)) return null;
  if (b.inkDepth < STROKE_MIN_DEPTH) return null;
  if (restFill(b) - letter.fill > STROKE_CLEAN_REST) return null;
  if (b.specks > FEW_PIECES && b.ink / b.specks < STROKE_MIN_PIECE) return null;
  const sure = (rise - STROKE_MIN_INK) / STROKE_INK_SPAN;
  return Math.min(1, STROKE_DOUBT_FLOOR + (1 - STROKE_DOUBT_FLOOR) * Math.max(0, sure));
}

/**
 * The shape of the ink in a bubble's inside: its spread across its main direction over its spread
 * along it (0 a straight line, 1 round or a cross). `inset` is how far inside the outline the inside
 * begins (mm), `inkBelow` the grey under which a pixel is ink. 0 with too little ink to tell.
 */
export function strokeShape(
  img: GreyImage,
  t: AffineTransform,
  inverse: AffineTransform,
  bubble: Bubble,
  inset: number,
  inkBelow: number,
): number {
  const cx = bubble.xMm + bubble.wMm / 2;
  const cy = bubble.yMm + bubble.hMm / 2;
  const irx = Math.max(0.3, bubble.wMm / 2 - inset);
  const iry = Math.max(0.3, bubble.hMm / 2 - inset);
  const { left, right, top, bottom } = pixelBox(img, t, cx, cy, irx, iry);
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let y = top; y <= bottom; y += 1) {
    const row = y * img.width;
    for (let x = left; x <= right; x += 1) {
      if ((img.data[row + x] as number) >= inkBelow) continue;
      const u = inverse.a * x + inverse.c * y + inverse.e - cx;
      const v = inverse.b * x + inverse.d * y + inverse.f - cy;
      if ((u / irx) ** 2 + (v / iry) ** 2 > 1) continue;
      n += 1;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
      syy += y * y;
    }
  }
  if (n < 4) return 0;
  const xx = sxx / n - (sx / n) ** 2;
  const yy = syy / n - (sy / n) ** 2;
  const xy = sxy / n - (sx / n) * (sy / n);
  // Eigenvalues of the ink's scatter: its variance along and across its main direction.
  const half = (xx + yy) / 2;
  const root = Math.sqrt(Math.max(0, ((xx - yy) / 2) ** 2 + xy * xy));
  const along = half + root;
  const across = Math.max(0, half - root);
  return along <= 0 ? 0 : Math.sqrt(across / along);
}

/** Whether ink of this shape is two bars crossing (an X or a +), not a line through the bubble. */
export function crossingBars(shape: number): boolean {
  return shape >= CROSS_RATIO;
}

/** Whether a stroke of this shape may be one straight line (a stray pencil stroke), not a tick, cross or dot. */
export function straightStroke(shape: number): boolean {
  return shape < STRAIGHT_RATIO;
}

/**
 * Whether a bubble marked by its ink, short of a fill (`solidInk`), is a grey with odd pixels past the
 * ink level rather than pencil strokes or a fill: the paper between its ink pixels is grey (rising over
 * `STROKE_CLEAN_REST` above the empty bubbles of its letter). Such a mark, what a rubber left or a light
 * fill, is only as sure as its darkness makes it (its ink proves nothing).
 */
export function greyInk(b: StrokeMeasure, page: StrokeContext, solidInk: number): boolean {
  if (b.line || b.crossed || b.streak || b.ink >= solidInk || b.ink <= 0) return false;
  if (denseStrokes(b)) return false;
  const letter = page.letters.get(b.label) ?? { ink: page.emptyInk.level, fill: page.emptyFill.level };
  return restFill(b) - letter.fill > STROKE_CLEAN_REST;
}

/**
 * Dense strokes (a zigzag scribble over the bubble): ink pixels at least `SCRIBBLE_MIN_DEPTH` dark on
 * average that make at least `SCRIBBLE_INK_SHARE` of the bubble's darkness. The paper between such
 * strokes is grey with their blurred edges, not with a rubber's grey: what a rubber leaves is grey all
 * over, its odd pixels past the ink level barely darker than it (its ink under 0.61 of its darkness,
 * at depths under 0.63, on the held-out half-erased sheets; a scribble's 0.67 and more, at 0.62 and more).
 */
export const SCRIBBLE_MIN_DEPTH = 0.62;
export const SCRIBBLE_INK_SHARE = 0.65;
export function denseStrokes(b: Pick<StrokeMeasure, 'fill' | 'ink' | 'inkDepth'>): boolean {
  return b.fill > 0 && b.inkDepth >= SCRIBBLE_MIN_DEPTH && (b.ink * b.inkDepth) / b.fill >= SCRIBBLE_INK_SHARE;
}
