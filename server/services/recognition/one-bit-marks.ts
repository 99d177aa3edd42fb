/**
 * Marks on a 1-bit scan. A scanner that delivers 1-bit images keeps of faint pencil only what its
 * threshold lets through (scattered specks) or, dithering, a density of black pixels; either way a
 * bubble's grey level is the share of its pixels that are black, and the paper around a dithered
 * mark is itself a sprinkle of black pixels. Read as a grey scan, such a page has no ink to speak of
 * in a faint mark and lines of "ink" on every bubble's paper ring.
 *
 * So a 1-bit page (`isOneBitImage`) is read on its local black density (`densityImage`, a small box
 * blur: what the station's greyscale conversion should have been), and its bubbles are split into
 * two populations by their count of black pixels (`splitOneBitPage`): black pixels fall on a bubble
 * about as a Poisson count does, so on the square root of the count (whose spread is about half a
 * pixel whatever the count) the empty bubbles of a page lie close together and a student's marks,
 * however faint, lie together above them. A page with a clear gap between the two is read on that
 * gap: a consistent faint student is read with confidence. A mark too small to tell from dust
 * (`oneBitMarkIsSure`; on a page whose empty bubbles kept no black, a sprinkle of specks is sure:
 * `speckleOnCleanPaper`) and anything near the gap still go to review; a page with no clear gap is
 * left to the grey reading.
 */
import type { GreyImage } from './grey-image';
import { quantile } from './sample-stats';

/** Pixels sampled to tell a 1-bit page: every `ONE_BIT_SAMPLE_STEP`th pixel of every such row. */
const ONE_BIT_SAMPLE_STEP = 7;
/**
 * Share of the sampled pixels that may be neither of the page's two levels and the page still be
 * 1-bit (a flattened border, an editor's stray anti-aliasing). A grey scan has noise in every pixel.
 */
const ONE_BIT_OTHER_SHARE = 0.002;
/**
 * Radius of the blur that turns black-pixel density into grey (mm): wide enough to average the
 * dither pattern of paper (a black pixel every few) so the paper ring of a bubble is not "lines",
 * narrow enough to stay inside the bubble clear of its outline (the measured inside is 0.55 mm in).
 */
export const DENSITY_RADIUS_MM = 0.2;
/**
 * The gap between a page's empty bubbles and its marks, on the square root of their black-pixel
 * counts, must be at least this wide: four spreads of a Poisson count (the square root of a count
 * spreads by about 0.5 whatever its size).
 */
export const MIN_ROOT_GAP = 2;
/**
 * A bubble this far (square root of the count) from the middle of the gap is read surely; nearer,
 * its confidence falls. Half the least gap: the bubbles on either edge of a clear gap are sure.
 */
const SURE_ROOT_MARGIN = MIN_ROOT_GAP / 2;
/** Confidence of a reading a 1-bit page cannot settle (the grey reading's doubt floor). */
export const ONE_BIT_DOUBT = 0.3;
/**
 * A mark is told from dust by its black area (mm²): from `SURE_BLOB_MM2` one blob is a mark (a
 * blob of dust that size is a dirty scanner, seen on the empty bubbles too); from `SURE_SPECKLE_MM2`
 * in at least `SURE_SPECKS` separate specks (a 1-bit scan's faint pencil; dust is one blob).
 */
export const SURE_BLOB_MM2 = 0.5;
export const SURE_SPECKLE_MM2 = 0.2;
export const SURE_SPECKS = 3;
/**
 * A mark of less black than that is still sure on a page whose paper shows neither dust nor noise:
 * at least `CLEAN_EMPTIES` empty bubbles (a page's worth, to know its paper by), not one of them with
 * more black than `CLEAN_EMPTY_ROOT` (the square root of its black-pixel count: about one pixel), and
 * the mark in at least `CLEAN_SPECKS` separate specks. What a threshold keeps of the faintest pencil
 * is a sprinkle of single pixels where the graphite's grain was darkest; dust is one blob, and a
 * scanner whose noise or dust could scatter specks in a bubble scatters them in the empty ones too.
 */
export const CLEAN_EMPTIES = 30;
export const CLEAN_EMPTY_ROOT = 1;
export const CLEAN_SPECKS = 5;
/**
 * A mark under this share of the density of the page's firm marks (their 90th percentile) is faint.
 * On a 1-bit page a faint mark and what a rubber left of a mark look alike (both keep a little of the
 * pencil's black); beside a firm mark of its question it is read as a mark surely only when the page
 * shows the student marks faintly: at least `FAINT_ALONE_CONFIRM` faint marks alone on their questions.
 */
export const FAINT_OF_FIRM = 0.5;
export const FAINT_ALONE_CONFIRM = 3;

/**
 * Whether the decoded page is 1-bit: nearly every sampled pixel is one of two grey levels (black and
 * white, whatever a file's palette made of them).
 */
export function isOneBitImage(img: GreyImage): boolean {
  const samples = Math.ceil(img.height / ONE_BIT_SAMPLE_STEP) * Math.ceil(img.width / ONE_BIT_SAMPLE_STEP);
  const maxOther = ONE_BIT_OTHER_SHARE * samples;
  // The page's two levels are the first two seen (a stray odd level taking a slot makes the page read
  // as grey, as every page was before); a grey scan gives itself away within its first rows.
  let first = -1;
  let second = -1;
  let other = 0;
  for (let y = 0; y < img.height; y += ONE_BIT_SAMPLE_STEP) {
    const row = y * img.width;
    for (let x = 0; x < img.width; x += ONE_BIT_SAMPLE_STEP) {
      const v = img.data[row + x]!;
      if (v === first || v === second) continue;
      if (first < 0) first = v;
      else if (second < 0) second = v;
      else other += 1;
    }
    if (other > maxOther) return false;
  }
  return samples > 0;
}

/**
 * The page as grey: each pixel the mean of the square of side 2 * radius + 1 around it (a separable
 * box blur by running sums; the border repeats the edge pixels). On a 1-bit page, its grey is the
 * local density of black.
 */
export function densityImage(img: GreyImage, radius: number): GreyImage {
  const { width, height, data } = img;
  const r = Math.max(1, Math.round(radius));
  const area = (2 * r + 1) * (2 * r + 1);
  // Row sums of the 2r + 1 pixels around each pixel, row by row.
  const across = new Uint16Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    let sum = 0;
    for (let k = -r; k <= r; k += 1) sum += data[row + Math.min(width - 1, Math.max(0, k))]!;
    for (let x = 0; x < width; x += 1) {
      across[row + x] = sum;
      const enter = x + r + 1 < width ? x + r + 1 : width - 1;
      const leave = x - r > 0 ? x - r : 0;
      sum += data[row + enter]! - data[row + leave]!;
    }
  }
  // Column sums of those over the 2r + 1 rows around, kept for a whole row at a time (in memory order).
  const column = new Uint32Array(width);
  for (let k = -r; k <= r; k += 1) {
    const row = Math.min(height - 1, Math.max(0, k)) * width;
    for (let x = 0; x < width; x += 1) column[x]! += across[row + x]!;
  }
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const row = y * width;
    const enter = (y + r + 1 < height ? y + r + 1 : height - 1) * width;
    const leave = (y - r > 0 ? y - r : 0) * width;
    for (let x = 0; x < width; x += 1) {
      out[row + x] = (column[x]! + (area >> 1)) / area;
      column[x]! += across[enter + x]! - across[leave + x]!;
    }
  }
  return { data: out, width, height };
}

/** A 1-bit page's split of its bubbles, on the square root of their black-pixel counts. */
export type OneBitSplit = {
  /** The middle of the gap: a bubble above it is marked. */
  threshold: number;
  /** The top of the empty bubbles and the bottom of the marks (the gap's edges). */
  emptyTop: number;
  markBottom: number;
  /** How many bubbles lie under the gap (the page's empty ones). */
  empties: number;
  /** The median root count of the bubbles under the gap (the middle of the page's empty ones). */
  emptyMiddle: number;
};

/** A bubble's black-pixel count as the split measures it: its square root. */
export function rootCount(density: number, insidePx: number): number {
  return Math.sqrt(Math.max(0, density) * insidePx);
}

/**
 * The page's split between empty bubbles and marks: the first gap of at least `MIN_ROOT_GAP` above
 * the empty level (the first quartile: most bubbles of a page are empty), or null when there is none
 * (every bubble empty, every one marked, or marks trailing off into the empty ones with no clear
 * gap: the grey reading decides those pages).
 */
export function splitOneBitPage(roots: readonly number[]): OneBitSplit | null {
  const sorted = [...roots].sort((p, q) => p - q);
  if (sorted.length < 4) return null;
  const level = sorted[Math.floor(0.25 * sorted.length)] as number;
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const low = sorted[i] as number;
    const high = sorted[i + 1] as number;
    if (high > level && high - low >= MIN_ROOT_GAP) {
      const emptyMiddle = sorted[Math.floor(i / 2)] as number;
      return { threshold: (low + high) / 2, emptyTop: low, markBottom: high, empties: i + 1, emptyMiddle };
    }
  }
  return null;
}

/**
 * A page's marks fade into its empty bubbles when its lightest mark has more black pixels than the
 * blackest empty bubble by less than this share of a bubble's inside (about 60 pixels, 0.45 mm², at
 * 300 dpi): a threshold kept only a few specks of the faintest pencil, so a mark fainter still may
 * have left nothing at all. (Held-out faint1bitThreshold-89: its lightest mark 51 pixels over the
 * blackest empty bubble, and two marks of the same pencil left only a bolder printed letter, read
 * blank and sure at 0.04.) (A dithered page keeps every grey as a density: its faintest marks stand
 * far above its paper.)
 */
export const FADING_SHARE = 0.06;

/**
 * On a split page, a bubble under the gap that stands this far (square root of its count) above the
 * middle of the page's empty bubbles is no empty bubble surely: six Poisson spreads, and above the
 * widest spread of empty bubbles seen on a thresholded page of grey paper (held-out faint1bitThreshold:
 * empty bubbles up to 2.2 above their middle, where the outline's edge falls in some). It is a faint
 * mark the split left under its gap with the empty bubbles (held-out validation faint1bitThreshold-47:
 * marks of root 13.3-14.8 under a gap from 14.8 to 18.4, empty bubbles about 9.9; read blank, sure).
 * Measured from the empty bubbles of its own letter where the page has `LETTER_EMPTIES` of them
 * (`letterEmptyMiddles`): the printed letters differ in black (a B or a D about 1.5 over a C), which
 * is most of the empty bubbles' spread about the page's middle.
 */
export const EMPTY_OUTLIER_ROOT = 1.5 * MIN_ROOT_GAP;

/**
 * A letter's empty bubbles on a split page give its own empty level (their median root count) from
 * this many on; a letter with fewer (every true/false answer on the page a T) is measured from the
 * page's empty bubbles. Over 528 held-out thresholded 1-bit pages, no empty bubble stood more than
 * 2.04 above its letter's level, where it stood up to 2.93 above the page's.
 */
export const LETTER_EMPTIES = 3;

/**
 * A bubble of a question read blank stands out of its letter's empty bubbles by `MIN_ROOT_GAP` only with
 * at least this share of its inside more black than their level (about 25 pixels, 0.18 mm², at 300 dpi):
 * on clean paper four spreads are a few pixels, a speck of dust (accuracy bench seed 33026 q16: an empty
 * E of 11 black pixels where the empty bubbles kept about one). The faint marks this rule is for held
 * 58 and 77 more (held-out faint1bitThreshold-527 q19, -512 q12).
 */
export const BLANK_OUTLIER_SHARE = 0.025;

/** The empty level of a page's bubbles (the first quartile of their root counts: most bubbles are empty). */
export function oneBitEmptyLevel(roots: readonly number[]): number {
  return quantile(roots, 0.25);
}

/**
 * A 1-bit page on which more than this share of the questions show no bubble over the split's threshold
 * is one whose threshold erased the student's marks (held-out faint1bitThreshold-227: 16 of 20 questions,
 * three read blank surely with a few black pixels left of a faint mark). Students answer most questions:
 * such a page is read as one with no split (`oneBitQuestionDoubt`), each question read blank in doubt.
 */
export const ERASED_PAGE_BLANKS = 0.5;

/** Whether a 1-bit page with `blank` of its `questions` showing no mark is one whose threshold erased its marks. */
export function thresholdErasedMarks(blank: number, questions: number): boolean {
  return blank > ERASED_PAGE_BLANKS * questions;
}

/** Whether a split page's marks fade into its empty bubbles (`FADING_SHARE`; `insidePx` a bubble's inside). */
export function marksFade(split: OneBitSplit, insidePx: number): boolean {
  return split.markBottom ** 2 - split.emptyTop ** 2 < FADING_SHARE * insidePx;
}

/**
 * Each letter's empty level on a split page (`bubbles` its bubbles' letters and root counts): the median
 * root count of the letter's bubbles under the gap, with at least `LETTER_EMPTIES` of them, else the
 * middle of the page's empty bubbles.
 */
export function letterEmptyMiddles(
  bubbles: readonly { label: string; root: number }[],
  split: OneBitSplit,
): (label: string) => number {
  const empties = new Map<string, number[]>();
  for (const { label, root } of bubbles) {
    if (root >= split.threshold) continue;
    const roots = empties.get(label) ?? [];
    roots.push(root);
    empties.set(label, roots);
  }
  const middles = new Map(
    [...empties].filter(([, roots]) => roots.length >= LETTER_EMPTIES).map(([label, roots]) => [label, quantile(roots, 0.5)]),
  );
  return (label) => middles.get(label) ?? split.emptyMiddle;
}

/**
 * Whether a question of a 1-bit page is in doubt whatever its bubbles' confidences say: on a page whose
 * marks fade into the empty bubbles (`marksFade`: a student's mark may have left nothing or a few
 * pixels) or with no split (`split` null: marks trail off into the empty bubbles, the grey reading
 * decides), a question read with no mark, or with a bubble read empty that has more black than the
 * page's empty bubbles (`MIN_ROOT_GAP` above their level, `level`): a second mark of a multiple-choice
 * question that the threshold all but erased (accuracy bench seed 33004 q42: truth AB read B). On
 * any split page, a bubble read empty that stands out of the empty bubbles of its letter (`middles`,
 * each bubble's empty level: `letterEmptyMiddles`) by `EMPTY_OUTLIER_ROOT`, or on a question read with
 * no mark by `MIN_ROOT_GAP`: students answer most questions, and a faint mark the threshold all but
 * erased left its letter bolder and a few specks (held-out faint1bitThreshold-512 q12: C 3.8 over the
 * page's empty Cs, read blank surely; -527 q19: F 2.7 over the page's empty bubbles, with no empty F).
 * Over 528 held-out pages no empty bubble of a question read blank stood more than 1.6 over its letter's.
 * On a question read blank the bubble must also hold `BLANK_OUTLIER_SHARE` of its inside more black than
 * its letter's level: a few pixels over paper that kept none are dust.
 */
export function oneBitQuestionDoubt(
  roots: readonly number[],
  marked: readonly boolean[],
  split: OneBitSplit | null,
  level: number,
  insidePx: number,
  middles: readonly number[] = roots.map(() => split?.emptyMiddle ?? level),
): boolean {
  if (split && !marksFade(split, insidePx)) {
    // A clear gap still may leave its faintest marks under it, among the empty bubbles.
    const blank = !marked.some(Boolean);
    return roots.some((root, i) => {
      const middle = middles[i]!;
      if (marked[i]) return false;
      if (root >= middle + EMPTY_OUTLIER_ROOT) return true;
      return blank && root >= middle + MIN_ROOT_GAP && root ** 2 - middle ** 2 >= BLANK_OUTLIER_SHARE * insidePx;
    });
  }
  return !marked.some(Boolean) || roots.some((root, i) => !marked[i] && root >= level + MIN_ROOT_GAP);
}

/** Whether a bubble's black area (mm²) in so many separate specks is surely pencil, not dust. */
export function oneBitMarkIsSure(blackMm2: number, specks: number): boolean {
  return blackMm2 >= SURE_BLOB_MM2 || (blackMm2 >= SURE_SPECKLE_MM2 && specks >= SURE_SPECKS);
}

/**
 * Whether a mark in so many separate specks is surely pencil on its page, whatever its black area: the
 * page's paper is clean (`CLEAN_EMPTIES`, `CLEAN_EMPTY_ROOT`) and the mark is a sprinkle of at least
 * `CLEAN_SPECKS` specks.
 */
export function speckleOnCleanPaper(specks: number, split: OneBitSplit): boolean {
  return split.empties >= CLEAN_EMPTIES && split.emptyTop <= CLEAN_EMPTY_ROOT && specks >= CLEAN_SPECKS;
}

/**
 * How sure a bubble's reading is on a split 1-bit page: by how far its root count lies from the
 * middle of the gap (sure from `SURE_ROOT_MARGIN`), a mark no surer than dust could make it.
 */
export function oneBitConfidence(root: number, split: OneBitSplit, markIsSure: boolean): number {
  const margin = Math.abs(root - split.threshold);
  const byMargin = Math.max(0, Math.min(1, margin / SURE_ROOT_MARGIN));
  if (root >= split.threshold && !markIsSure) return Math.min(byMargin, ONE_BIT_DOUBT);
  return byMargin;
}

/**
 * A split 1-bit page's marks: the black density of its firm ones (`firm`, the 90th percentile of its
 * marks'), and whether the page shows the student marks faintly (`faintWay`: at least
 * `FAINT_ALONE_CONFIRM` faint marks stand alone as the answer to a question).
 */
export type PageMarking = { firm: number; faintWay: boolean };

/** Whether a mark of black density `density` is faint beside the page's firm marks (`firm` their density). */
function faintBeside(density: number, firm: number): boolean {
  return density < FAINT_OF_FIRM * firm;
}

/** A page's marking (`questions` each question's marked bubbles, `density` their black density), or null with no mark. */
export function pageMarking<B>(questions: readonly (readonly B[])[], density: (b: B) => number): PageMarking | null {
  const densities = questions.flatMap((marks) => marks.map(density));
  if (densities.length === 0) return null;
  const firm = quantile(densities, 0.9);
  const alone = questions.filter((marks) => marks.length === 1 && faintBeside(density(marks[0] as B), firm)).length;
  return { firm, faintWay: alone >= FAINT_ALONE_CONFIRM };
}

/**
 * Whether a question's marks (their black densities; at least one) are all faint, under `FAINT_OF_FIRM`
 * of the page's firm marks, on a page that does not show the student marks faintly. On a page whose
 * marks fade into its empty bubbles (`marksFade`), a multiple-choice question marked so faintly is in
 * doubt: the pencil that left so little of its marks may have left nothing of another (held-out
 * faint1bitThreshold-298 q14: truth AE read A at 1, E left one black pixel). A student who marks
 * faintly throughout is read on the page's split, as a page of consistent marks should be.
 */
export function markedOnlyFaintly(marks: readonly number[], page: PageMarking | null): boolean {
  return page !== null && !page.faintWay && marks.length > 0 && marks.every((density) => faintBeside(density, page.firm));
}

/**
 * The faint marks beside a firm mark of their question that nothing on the page confirms as the
 * student's way of marking (`PageMarking.faintWay`): they may be what a rubber left of a changed
 * answer. `questions` holds each question's marked bubbles, `density` their black density, `page` the
 * page's marking.
 */
export function unconfirmedFaintMarks<B>(
  questions: readonly (readonly B[])[],
  density: (b: B) => number,
  page: PageMarking | null,
): Set<B> {
  if (page === null || page.faintWay) return new Set();
  const faint = (b: B) => faintBeside(density(b), page.firm);
  return new Set(questions.flatMap((marks) => (marks.some((b) => !faint(b)) ? marks.filter(faint) : [])));
}
