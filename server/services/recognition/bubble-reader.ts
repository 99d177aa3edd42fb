/**
 * Reads the bubbles of a page. Each bubble is measured twice over inside an inset ellipse, against the
 * paper white just around it and the printer black of the fiducials: its fill (mean darkness, 0 paper
 * to 1 toner) and its ink (the share of its pixels darker than half way from paper to toner). Ink is
 * what a pencil leaves, whatever its shape: a fill, a tick, a cross, the speckle a 1-bit scanner keeps
 * of faint pencil; a half-erased mark or a grey smudge darkens the fill but leaves little ink. The
 * paper ring just outside the bubble's outline is looked at too: ink on two opposite sides of it is a
 * line crossing the bubble (a scanner streak, a stray pencil stroke), not a mark. A thin straight line
 * across it one way is left out and the bubble read on the rest: a stray stroke over an empty bubble
 * reads empty (never fully certain), one over a mark still leaves the mark.
 *
 * Marks are decided per page, against the page's own population of empty bubbles (most of a page's
 * bubbles are empty): a bubble is marked when its ink stands clearly above the page's empty level,
 * at the first clear gap above it, so a page of consistent ticks or light marks reads as surely as a
 * page of fills. A bubble's confidence says how far it sits from the population it was put in: a mark
 * barely above the empty level, an empty bubble with more ink or fill than the page's empty ones (a
 * half-erased mark, a smudge, a trace of speckle), a bubble a line runs through: none is certain, and
 * its question goes to review. A streak running down the page (two or more bubbles crossed at the same
 * column) is measured around: the bubbles it crosses are read on the pixels beside it.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import { LOW_CONFIDENCE, type ObjectiveReading, type RecognitionProblem } from '../../../src/shared/contract/recognition';
import type { Bubble, ObjectiveQuestionLayout } from '../../../src/shared/contract/answer-sheet';
import { applyAffine, invertAffine } from './affine-fit';
import type { GreyImage } from './grey-image';
import {
  crossingBars,
  darkStrokeInk,
  greyInk,
  letterLevels,
  letterSpread,
  straightStroke,
  strokeEvidence,
  strokeShape,
  type StrokeContext,
} from './stroke-marks';
import {
  oneBitConfidence,
  oneBitEmptyLevel,
  oneBitMarkIsSure,
  oneBitQuestionDoubt,
  letterEmptyMiddles,
  ONE_BIT_DOUBT,
  markedOnlyFaintly,
  pageMarking,
  marksFade,
  type OneBitSplit,
  rootCount,
  SURE_BLOB_MM2,
  speckleOnCleanPaper,
  splitOneBitPage,
  thresholdErasedMarks,
  unconfirmedFaintMarks,
} from './one-bit-marks';
import { brightColumns, seenConfidence } from './streak-columns';
import { emptyOutlierCap } from './empty-outliers';
import { GREY_LEVEL, SOLID_INK, isWash, residueConfidence, washMarkCap } from './grey-marks';
import { quantile } from './sample-stats';
import {
  LONE_GREY_CONFIDENCE,
  loneGreyCap,
  loneGreys,
  loneWashMarkCap,
  loneLightMarkRises,
  separatedFromLightMarks,
} from './lone-greys';
import { answerChanged, patchyCore, patchyGrey, rubbedCover, rubbedMarkCap, rubbedPage, rubberSmear } from './rubbed-marks';
import { bandRunsBetween, runOutOfBubble, strayEntry } from './stray-stroke';
import { crossArmsOnOnePair, crossOnAllSides } from './line-crossings';
import { tickWithArmOutside } from './tick-arm';
import { insideInk, isSolidDot } from './dot-mark';
import { axisBandFill, inkAxisBand } from './line-refit';
import { RING_PARTIAL, nearbyOutlines, ringConfidence, ringCover, ringHits } from './ring-mark';

/** The inside that is measured: clear of the printed outline (0.3 mm) and of a small fit error. */
const INNER_INSET_MM = 0.55;
/**
 * The inside's outer band: beyond this share of the way from its centre to its edge (squared, as the
 * ellipse test measures). The band holds about 40 % of the inside's area.
 */
const EDGE_BAND = 0.78;
const EDGE_BAND_SQ = EDGE_BAND * EDGE_BAND;
/** The paper around a bubble: outside its outline by this much, inside its rectangle grown by `PAPER_MARGIN_MM`. */
const OUTLINE_CLEAR_MM = 0.4;
const PAPER_MARGIN_MM = 1;
/** The paper level is this percentile of the surrounding pixels: robust to a mark spilling over the outline. */
const PAPER_PERCENTILE = 0.8;
/** A pixel is ink when darker than this share of the way from paper to toner. */
const INK_LEVEL = 0.5;
/** On the paper ring, a line is what is darker than this share of the way from paper to toner (lighter than ink: a grey streak). */
const LINE_LEVEL = 0.25;
/** The grey under which a pixel is darker than `level` of the way from paper of grey `white` to the printer's toner `black`. */
function levelBelow(level: number, white: number, black: number): number {
  return white - level * Math.max(40, white - black);
}
/**
 * A rubber's strokes drag graphite sideways out of a mark, past where a fill spills: 0.5-0.75 mm past the
 * outline on the held-out half-erased sheets, a light fill at most 0.5 mm on the accuracy bench. Grey on
 * the paper ring this far out counts from `SMEAR_LEVEL` of the way from paper to toner (a scan's noise
 * stays under it).
 */
const SMEAR_REACH_MM = 0.65;
const SMEAR_LEVEL = 0.1;
/** Ink on one side of the paper ring counts from this area (a pencil line of 0.3 mm crossing it is about 0.2 mm²; dust is less). */
const RING_INK_MM2 = 0.08;

/** Robust spread of the page's empty bubbles is at least this (ink share, fill). */
const EMPTY_SPREAD_FLOOR = 0.003;
/** A mark must stand this far above the page's empty level (or four spreads, if more): ink share, fill. */
export const MIN_MARK_RISE = 0.05;
export const MIN_FILL_RISE = 0.12;
/** The gap that separates marks from empty bubbles must be at least this wide. */
export const MIN_GAP = 0.05;
/** Without such a gap (every bubble empty, or ink all over), a bubble is marked from this ink share (fill). */
export const FALLBACK_INK = 0.3;
export const FALLBACK_FILL = 0.45;
/** A mark is certain this far above the page's lowest mark level; nearer, its confidence falls. */
const MARK_SPAN = 0.1;
/**
 * Where a bubble's fill sits between the page's empty level (0) and its marks' level (1): a mark read
 * from its fill alone (no ink: light pencil) is certain from `SURE_SHARE`, doubtful down to
 * `DOUBT_SHARE`; an empty bubble is doubtful from `EMPTY_SHARE` (a half-erased mark, a smudge).
 */
const SURE_SHARE = 0.72;
const DOUBT_SHARE = 0.45;
const EMPTY_SHARE = 0.25;
/**
 * A mark read from its fill alone is also certain when it stands this far above the page's empty
 * level (in paper-to-toner units), whatever the page's other marks are like: a careful student's light
 * pencil among fills. What a rubber leaves of a mark (grey 150 and lighter on white paper) stays under
 * `ERASURE_RISE`; from there to `FIRM_RISE` confidence climbs from the doubt floor.
 */
export const ERASURE_RISE = 0.34;
export const FIRM_RISE = 0.42;
/**
 * An erasure rises at most this share of the firm mark beside it above the page's empty level: a
 * rubber takes most of a mark away (a firm fill rises 0.6 to 0.8, what is left of it under 0.34).
 */
export const ERASURE_OF_FIRM = 0.6;
/**
 * What a rubber left of a fill may rise more than `ERASURE_OF_FIRM` of the fill beside it where the
 * rubber took it off in patches: 0.68-0.71 on held-out half-erased sheets (a true light mark beside them
 * 0.69), so a grey that may be a rubber's is never sure under this share (rubbed-marks.ts).
 */
const RUBBED_ERASURE_OF_FIRM = 0.75;
/**
 * A grey with less ink than a mark, beside a firm mark of its question, under this rise is never
 * sure, however light the page's other marks are: what a rubber leaves with a margin (a half-erased
 * mark of grey 150 rises about 0.36; a careful student's light pencil on a clean scan 0.37 and more).
 */
export const GREY_DOUBT_RISE = 0.37;
/** An erasure beside a firm mark of the same question (the answer changed) is read empty this surely. */
const ERASURE_CONFIDENCE = 0.8;
/**
 * A page of firm marks (`firmPage`): at least this many fills (ink over `SOLID_INK` of the bubble), no
 * pencil on the page lighter than `LIGHT_OF_FIRM` of their typical rise above the empty level (a light
 * mark, a tick, a cross, a partial fill, speckle, a grey with pencil grain).
 */
export const FIRM_PAGE_MARKS = 6;
export const LIGHT_OF_FIRM = 0.8;
/** A rubbed grey within this rise under its page's erasure ceiling is read empty less and less surely. */
const ERASURE_MARGIN = 0.02;
/** Ink share a smooth grey may show (noise, JPEG) and still be what a rubber left. */
const SMOOTH_INK = 0.02;
/** A mark with less ink than this is read from its fill (on a 1-bit scan, where ink is all there is, such a bubble is light). */
const GREY_MARK_INK = 0.1;
/** The marks' fill level when a page has no marks to tell it. */
const DEFAULT_MARK_FILL = 0.75;
/**
 * An empty bubble with more ink than the page's empty ones (beyond `EMPTY_INK_START` or three
 * spreads) loses confidence over `EMPTY_INK_SPAN`; with more fill than them (beyond
 * `EMPTY_FILL_START`, or three spreads) over `EMPTY_FILL_SPAN`; both down to `DOUBT_FLOOR`.
 */
const EMPTY_INK_START = 0.006;
const EMPTY_INK_SPAN = 0.03;
const EMPTY_FILL_START = 0.12;
/** How far above a page's empty level an empty bubble's fill may rise before it starts to be doubtful. */
function emptyDoubtRise(model: PageModel): number {
  return Math.max(EMPTY_FILL_START, 3 * model.emptyFill.spread);
}
const EMPTY_FILL_SPAN = 0.1;
const DOUBT_FLOOR = 0.3;
/** An empty-looking bubble with this many separate specks of ink is doubtful (dust is one or two). */
const SPECKLE_DOUBT = 4;
/**
 * The printed outline seen inside an empty bubble (a photo's curled edge bends the page under the
 * fit, so a thin arc of the outline falls inside the measured ellipse, where a JPEG breaks it into
 * specks): at least `OUTLINE_EDGE_SHARE` of the ink in the inside's outer band, and no more ink than
 * `OUTLINE_MAX_INK`. Such ink and specks are not held against an empty bubble; its darkness still is.
 * Pencil, even faint on a 1-bit scan, spreads over the bubble (about 40 % of it in the band).
 */
const OUTLINE_EDGE_SHARE = 0.95;
const OUTLINE_MAX_INK = 0.06;
/**
 * Light strokes: a pixel darker than this share of the way from paper to toner (lighter than ink: the
 * grey of a pencil tick or cross on a scan whose gamma or contrast lifts pencil above the ink level).
 * Only the core of the inside is looked at (within `EDGE_BAND` of its centre), clear of the printed
 * outline a fit a little off or a photo's curl shows in the outer band.
 */
const LIGHT_LEVEL = 0.35;
/**
 * An empty-read bubble whose core holds this much more light-stroke share than the page's empty
 * bubbles of the same option letter (the printed letter is in every one of them) starts to be
 * doubtful, and is as doubtful as a trace of pencil (`DOUBT_FLOOR`) `LIGHT_RISE_SPAN` further on.
 * What a rubber leaves of a mark (grey 200-230 in patches) rises under 0.03 in nine of ten bubbles
 * and under the start in all but a few; a light cross of a gamma-lifted scan rises 0.15.
 */
export const LIGHT_RISE_START = 0.07;
const LIGHT_RISE_SPAN = 0.04;
/** Empty bubbles of one letter needed for its own level; fewer, and the letter is not judged this way. */
const LIGHT_MIN_PEERS = 3;
/** A grey darker than `LIGHT_LEVEL` over this share of a bubble's core is a wash (a rubber's, or a light fill), not strokes. */
const WASH_CORE = 0.8;
/** Light strokes raise a bubble's fill by at most about this share of their rise in its core (`washOverCore`). */
const STROKES_FILL_SHARE = 0.55;
/**
 * A mark that is one straight stroke, or an empty-read dark stroke that proves no mark (`strokeMarks`),
 * is never more certain than this.
 */
const STRAIGHT_CONFIDENCE = 0.5;
/**
 * A dot (dot-mark.ts) never reaches this far (mm) out of its bubble's outline: a 2 mm dot off centre
 * stays a millimetre inside it. A stroke that does is no dot, whatever its end inside looks like.
 */
const DOT_MAX_RUN_OUT_MM = 1.5;
/** A bubble a line runs through, with less ink than a fill, is never more certain than this. */
const LINE_CONFIDENCE = 0.3;
/** A bubble with this much ink (or a line through it) is checked for a streak down the page through it. */
const STREAK_CHECK_INK = 0.02;
/**
 * A page whose empty bubbles hold this much ink (their level) prints its letters as ink: a contrasty
 * scan, its letters' strokes as dark as a pencil's (0.11 on a held-out gamma-lifted sheet; 0 on most).
 */
const LETTER_INK = 0.02;
/** A streak is dark over this share of the rows of `STREAK_SPAN_MM` around the bubble. */
const STREAK_SPAN_MM = 40;
const STREAK_SHARE = 0.85;
/** Vertical crossings of different bubbles this close (mm) in image x are one streak down the page. */
const STREAK_MATCH_MM = 1;
/** A crossing wider than this share of the bubble is a mark spilling over the outline, not a streak. */
const STREAK_MAX_WIDTH_SHARE = 0.4;
/** A bubble read beside a line or streak needs this share of its inside left to read (beside a streak: to be certain). */
const MIN_SEEN_SHARE = 0.4;
/**
 * A dark streak's spill: ink beside a dark streak within this distance (mm) of its columns that is most of
 * the ink left (over 1 - `SPILL_INK_SHARE` of it) is the streak's, not a mark's (a fill beside it keeps its
 * share). A white streak spills nothing (held-out lightStreaks-199 q13: a tick cut by one, read empty).
 */
const SPILL_MM = 0.8;
const SPILL_INK_SHARE = 0.5;
/**
 * Read beside a band widened for a streak's spill, a bubble needs this share of its inside left to read
 * surely: the ink the wider band took may be a mark's strokes crossing the streak, not its spill (held-out
 * streakVariety-294 q15: a tick whose vertex lies at a thin streak, read empty at 1 with 0.42 left).
 */
const SPILL_MIN_SEEN_SHARE = 0.6;
/** Beside a streak, less than this share of the inside left is no reading at all (half of what makes one certain). */
const STREAK_MIN_SEEN_SHARE = MIN_SEEN_SHARE / 2;
/**
 * A band left out of a bubble for the line across it takes at least this share of its pixels' worth of
 * ink with it (a pencil line is ink nearly all across its width); less, and it missed the line.
 */
const BAND_INK_SHARE = 0.5;
/**
 * A line read along down a streaked column runs through the bubble when the band left out took at least
 * this share of its pixels' worth of ink (0.52 and more on the accuracy bench); less, and the line ends in
 * it (0.31 for a tick at the end of a wide stray line from below, held-out strayVariety-195 q2, read empty).
 * On six held-out sets 11 of 67 such bands took less, all on pages held for other reasons already.
 */
const THROUGH_INK_SHARE = 0.4;
/**
 * A stroke at least this wide (half-width, mm, at the 90th percentile of its ink's distances from its
 * axis) ends raggedly enough to throw the band off its axis: a pencil line of 0.7 mm and more. A
 * ballpoint or pencil tick's arm is narrower.
 */
const WIDE_STROKE_HALF_MM = 0.3;
/** One straight stroke is ink over at least this share of the band fitted along it (line-refit.ts). */
const STROKE_FILLS_BAND = 0.6;
/**
 * A light stroke mark (stroke-marks.ts), or a mark by its ink short of a fill, is one straight stroke from
 * this share: a light pencil line's ink is grainier than a dark one's. Run out of its bubble
 * (`DOT_MAX_RUN_OUT_MM`), too short and wide inside for `straightStroke`, it is the end of a wide stray
 * line (held-out strayVariety-504 q15: 0.56, run out 5.5 mm, read as a second answer of a multiple-choice
 * question at 1; strayVariety-598 q14, a mark by its ink: 0.5-0.6, run in from 4 mm above E to its bottom
 * outline, a third answer at 1). The held-out stroke marks of 528-539 that ran as far out of their bubbles
 * filled at most 0.45 (ticks, their vertex at the outline), at most 0.33 but for those.
 */
const LIGHT_STROKE_FILLS_BAND = 0.5;
/** A line across a bubble is left out of it up to this half-width (mm): a pencil stroke, not a fill. */
const LINE_MAX_HALF_MM = 0.6;
/** A line's half-width is where this share of its ink on the paper ring lies (dust beside it left out). */
const LINE_WIDTH_QUANTILE = 0.9;
/** Pixels either side of a line's measured width that are left out with it (blur, JPEG). */
const LINE_MARGIN_PX = 1.5;
/**
 * A bubble read beside a pencil line that runs across it and beyond on both sides is never more
 * certain than this: the line is not an answer, the rest of the bubble says whether there is one.
 */
const CROSSED_CONFIDENCE = 0.8;
/** ... and on a page rubbed out on, when what is left beside it may be a rubber's (`rubbedCover`), never more than this. */
const CROSSED_MARK_CONFIDENCE = 0.5;
/** A diagonal line runs at least this far (sine of the angle) off level and off upright: 20 degrees. */
const DIAGONAL_MIN_SIN = 0.34;
/**
 * A stroke that runs into a bubble from one side is left out of it when what is left beside it holds
 * at most this share of the bubble's ink: the stroke's own end. More, and the bubble holds a mark of
 * its own beside the stroke (a checkmark's short arm, a fill) and is read whole.
 */
const STROKE_EXPLAINS_INK = 0.25;
/** How far (mm) past its bubble a stray line is followed into a neighbour. */
const LINE_REACH_MM = 5;

/** A straight band of the image (a line or a streak): the pixels within `half` of the line through (x, y) with unit normal (nx, ny). */
export type Band = { x: number; y: number; nx: number; ny: number; half: number };

/** Whether image pixel (x, y) lies on a band (within its half-width of its line). */
function inBand(band: Band, x: number, y: number): boolean {
  return Math.abs((x - band.x) * band.nx + (y - band.y) * band.ny) <= band.half;
}

/** The band of image columns x0 to x1. */
export function columnBand(x0: number, x1: number): Band {
  return { x: (x0 + x1) / 2, y: 0, nx: 1, ny: 0, half: (x1 - x0) / 2 };
}

export type BubbleMeasure = {
  /** Mean darkness, 0 (paper) to 1 (as dark as the printed fiducials). */
  fill: number;
  /** The paper's grey around it. */
  white: number;
  /** Share of the inside darker than half way from paper to toner. */
  ink: number;
  /** Separate specks of ink inside. */
  specks: number;
  /**
   * Share of the inside's ink pixels that lie in its outer band (beyond `EDGE_BAND` of the way from
   * centre to edge): near 1 when the ink is the printed outline showing inside (a photo's curled edge,
   * a fit a little off), lower when pencil is spread over the bubble. 0 with no ink.
   */
  edgeInk: number;
  /** Ink on the paper above and below the bubble: a line runs down through it; `lineX` its image column. */
  vertical: boolean;
  lineX: number;
  lineWidthPx: number;
  /** Ink on the paper left and right of the bubble: a line runs across it. */
  horizontal: boolean;
  /**
   * A line that runs through the bubble (across, down or diagonally), thin as a pencil stroke: the
   * band from the ink on one side of the paper ring to the ink on the other, with its measured width.
   */
  across: Band | null;
  /** The line `across` runs diagonally: its ink on the paper ring is not on one pair of opposite sides. */
  diagonal: boolean;
  /**
   * With ink on one pair of opposite sides of the paper ring: how far (mm) nearly all of it lies from
   * the straight line through its two ends (a pencil line's half-width; far more for a cross's four
   * arms, two on each side). 0 otherwise.
   */
  lineSpreadMm: number;
  /** Share of the inside left out (a band given to measure beside). */
  hidden: number;
  /** Share of the inside's core (within `EDGE_BAND` of its centre) darker than `LIGHT_LEVEL`: light strokes and the printed letter. */
  coreLight: number;
  /**
   * Mean darkness (0 paper to 1 toner) of the inside's ink pixels: a pen or pencil stroke is as dark
   * as a fill along its middle, what a rubber leaves only just crosses the ink level. 0 with no ink.
   */
  inkDepth: number;
  /** Pixels of the inside measured (those in `skip` left out). */
  insidePx: number;
  /**
   * Share of the inside that is grey, lighter than ink but darker than `GREY_LEVEL` (grey-marks.ts): a
   * wash (what a rubber leaves, light pencil) is mostly grey, strokes of ink only along their edges.
   */
  grey: number;
  /**
   * How much more grey (mm²) lies on the paper far to the left or right of the bubble (over
   * `SMEAR_REACH_MM` past its outline) than far above or below it: a rubber's strokes drag graphite
   * sideways out of a mark, where a fill's spill or a scan's noise lies all round (rubbed-marks.ts).
   */
  sideSmear: number;
};

/** Scratch buffers for the ring pixels of one bubble (values and image x, with their side). */
let ringValues = new Uint8Array(4096);
let ringX = new Int32Array(4096);
let ringSide = new Uint8Array(4096);
let ringY = new Int32Array(4096);
let ringFar = new Uint8Array(4096);

/**
 * Measures one bubble under a transform (template mm to image pixels) and its inverse; pixels in
 * `skip` (a streak, a line) are left out of the inside.
 */
export function measureBubble(
  img: GreyImage,
  t: AffineTransform,
  inverse: AffineTransform,
  bubble: Bubble,
  black: number,
  skip: Band | null = null,
): BubbleMeasure {
  const skipped = (x: number, y: number) => skip !== null && inBand(skip, x, y);
  const cx = bubble.xMm + bubble.wMm / 2;
  const cy = bubble.yMm + bubble.hMm / 2;
  const rx = bubble.wMm / 2;
  const ry = bubble.hMm / 2;
  const irx = Math.max(0.3, rx - INNER_INSET_MM);
  const iry = Math.max(0.3, ry - INNER_INSET_MM);
  const orx = rx + OUTLINE_CLEAR_MM;
  const ory = ry + OUTLINE_CLEAR_MM;
  const mx = rx + PAPER_MARGIN_MM;
  const my = ry + PAPER_MARGIN_MM;
  const farX = rx + SMEAR_REACH_MM;
  const farY = ry + SMEAR_REACH_MM;

  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const [dx, dy] of [
    [-mx, -my],
    [mx, -my],
    [-mx, my],
    [mx, my],
  ] as const) {
    const p = applyAffine(t, cx + dx, cy + dy);
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  const left = Math.max(0, Math.floor(x0));
  const top = Math.max(0, Math.floor(y0));
  const right = Math.min(img.width - 1, Math.ceil(x1));
  const bottom = Math.min(img.height - 1, Math.ceil(y1));
  const area = (right - left + 1) * (bottom - top + 1);
  if (area > ringValues.length) {
    ringValues = new Uint8Array(area);
    ringX = new Int32Array(area);
    ringSide = new Uint8Array(area);
    ringY = new Int32Array(area);
    ringFar = new Uint8Array(area);
  }

  const paper = new Uint32Array(256);
  const inside = new Uint32Array(256);
  let paperCount = 0;
  let inkSum = 0;
  let inkCount = 0;
  let innerCount = 0;
  let ringCount = 0;
  const edge = new Uint32Array(256);
  const core = new Uint32Array(256);
  let coreCount = 0;
  for (let y = top; y <= bottom; y += 1) {
    const row = y * img.width;
    // Template millimetres of the row's first pixel, relative to the bubble centre; step per pixel.
    let u = inverse.a * left + inverse.c * y + inverse.e - cx;
    let v = inverse.b * left + inverse.d * y + inverse.f - cy;
    for (let x = left; x <= right; x += 1, u += inverse.a, v += inverse.b) {
      const value = img.data[row + x] as number;
      const inner = (u / irx) ** 2 + (v / iry) ** 2;
      if (inner <= 1) {
        innerCount += 1;
        if (skip && skipped(x, y)) continue;
        inkSum += value;
        inkCount += 1;
        inside[value]! += 1;
        if (inner > EDGE_BAND_SQ) edge[value]! += 1;
        else {
          core[value]! += 1;
          coreCount += 1;
        }
      } else if (Math.abs(u) <= mx && Math.abs(v) <= my && (u / orx) ** 2 + (v / ory) ** 2 > 1) {
        paper[value]! += 1;
        paperCount += 1;
        // Side of the ring: 0 top, 1 bottom, 2 left, 3 right (by the direction from the centre, axes normalised).
        const nu = u / mx;
        const nv = v / my;
        ringValues[ringCount] = value;
        ringX[ringCount] = x;
        ringY[ringCount] = y;
        ringSide[ringCount] = Math.abs(nv) >= Math.abs(nu) ? (nv < 0 ? 0 : 1) : nu < 0 ? 2 : 3;
        ringFar[ringCount] = (u / farX) ** 2 + (v / farY) ** 2 > 1 ? 1 : 0;
        ringCount += 1;
      }
    }
  }
  const none: BubbleMeasure = {
    fill: 0,
    white: 255,
    ink: 0,
    specks: 0,
    edgeInk: 0,
    vertical: false,
    lineX: 0,
    lineWidthPx: 0,
    horizontal: false,
    across: null,
    diagonal: false,
    lineSpreadMm: 0,
    hidden: innerCount === 0 ? 0 : 1 - inkCount / innerCount,
    coreLight: 0,
    inkDepth: 0,
    insidePx: inkCount,
    grey: 0,
    sideSmear: 0,
  };
  if (inkCount === 0 || paperCount === 0) return none;
  let seen = 0;
  let white = 255;
  for (let g = 0; g < 256; g += 1) {
    seen += paper[g] as number;
    if (seen >= PAPER_PERCENTILE * paperCount) {
      white = g;
      break;
    }
  }
  const range = Math.max(40, white - black);
  const inkBelow = white - INK_LEVEL * range;
  const lineBelow = white - LINE_LEVEL * range;
  let dark = 0;
  let edgeDark = 0;
  let darkSum = 0;
  for (let g = 0; g < inkBelow && g < 256; g += 1) {
    dark += inside[g] as number;
    edgeDark += edge[g] as number;
    darkSum += (inside[g] as number) * g;
  }
  const greyBelow = white - GREY_LEVEL * range;
  let grey = 0;
  for (let g = Math.max(0, Math.ceil(inkBelow)); g < greyBelow && g < 256; g += 1) grey += inside[g] as number;
  const lightBelow = white - LIGHT_LEVEL * range;
  let light = 0;
  for (let g = 0; g < lightBelow && g < 256; g += 1) light += core[g] as number;

  // Separate specks of ink inside (8-connected starts): a 1-bit scanner keeps faint pencil as scattered
  // specks, where dust is one blob and a mark's strokes are a few.
  let specks = 0;
  // Only where it can matter: a bubble with this much ink is read as marked anyway.
  if (dark > 0 && dark < 0.3 * inkCount) {
    const isDark = (x: number, y: number) => {
      if (x < left || x > right || y < top) return false;
      const u = inverse.a * x + inverse.c * y + inverse.e - cx;
      const v = inverse.b * x + inverse.d * y + inverse.f - cy;
      return (u / irx) ** 2 + (v / iry) ** 2 <= 1 && (img.data[y * img.width + x] as number) < inkBelow && !skipped(x, y);
    };
    for (let y = top; y <= bottom; y += 1) {
      for (let x = left; x <= right; x += 1) {
        if (!isDark(x, y)) continue;
        if (!isDark(x - 1, y) && !isDark(x - 1, y - 1) && !isDark(x, y - 1) && !isDark(x + 1, y - 1)) specks += 1;
      }
    }
  }

  const pxPerMm2 = Math.abs(t.a * t.d - t.b * t.c);
  const sideMin = RING_INK_MM2 * pxPerMm2;
  const sides = [0, 0, 0, 0];
  // Grey far out on each side of the ring, in pixels.
  const smearBelow = white - SMEAR_LEVEL * range;
  const far = [0, 0, 0, 0];
  let lineSum = 0;
  let lineMin = Infinity;
  let lineMax = -Infinity;
  for (let i = 0; i < ringCount; i += 1) {
    if (ringFar[i] === 1 && ringValues[i]! < smearBelow) far[ringSide[i]!]! += 1;
    if (ringValues[i]! >= lineBelow) continue;
    const side = ringSide[i]!;
    sides[side]! += 1;
    if (side < 2) {
      lineSum += ringX[i]!;
      lineMin = Math.min(lineMin, ringX[i]!);
      lineMax = Math.max(lineMax, ringX[i]!);
    }
  }
  const vertical = sides[0]! >= sideMin && sides[1]! >= sideMin;
  const horizontal = sides[2]! >= sideMin && sides[3]! >= sideMin;
  let across: Band | null = null;
  let lineSpreadMm = 0;
  if (vertical !== horizontal) {
    // The line from the ink on one side of the ring to the ink on the other (the median point of
    // each: a speck of dust beside the line does not move it); its half-width is how far nearly all
    // of that ink lies from it.
    const [p, q] = vertical ? [0, 1] : [2, 3];
    const xs: [number[], number[]] = [[], []];
    const ys: [number[], number[]] = [[], []];
    for (let i = 0; i < ringCount; i += 1) {
      if (ringValues[i]! >= lineBelow || (ringSide[i] !== p && ringSide[i] !== q)) continue;
      const k = ringSide[i] === p ? 0 : 1;
      xs[k].push(ringX[i]!);
      ys[k].push(ringY[i]!);
    }
    const px = quantile(xs[0], 0.5);
    const py = quantile(ys[0], 0.5);
    const dx = quantile(xs[1], 0.5) - px;
    const dy = quantile(ys[1], 0.5) - py;
    const length = Math.hypot(dx, dy);
    if (length > 0) {
      const nx = -dy / length;
      const ny = dx / length;
      const distances = [0, 1].flatMap((k) => xs[k]!.map((x, i) => Math.abs((x - px) * nx + (ys[k]![i]! - py) * ny)));
      const half = quantile(distances, LINE_WIDTH_QUANTILE);
      lineSpreadMm = half / Math.sqrt(pxPerMm2);
      if (half <= LINE_MAX_HALF_MM * Math.sqrt(pxPerMm2)) across = { x: px, y: py, nx, ny, half: half + LINE_MARGIN_PX };
    }
  } else {
    const centre = applyAffine(t, cx, cy);
    across = diagonalLine(ringCount, lineBelow, sideMin, LINE_MAX_HALF_MM * Math.sqrt(pxPerMm2), centre);
  }
  return {
    fill: Math.min(1, Math.max(0, (white - inkSum / inkCount) / range)),
    white,
    ink: dark / inkCount,
    specks,
    edgeInk: dark === 0 ? 0 : edgeDark / dark,
    vertical,
    lineX: vertical ? lineSum / (sides[0]! + sides[1]!) : 0,
    lineWidthPx: vertical ? lineMax - lineMin + 1 : 0,
    horizontal,
    across,
    diagonal: across !== null && vertical === horizontal,
    lineSpreadMm,
    hidden: innerCount === 0 ? 0 : 1 - inkCount / innerCount,
    coreLight: coreCount === 0 ? 0 : light / coreCount,
    inkDepth: dark === 0 ? 0 : Math.min(1, Math.max(0, (white - darkSum / dark) / range)),
    insidePx: inkCount,
    grey: grey / inkCount,
    sideSmear: (Math.max(far[2]!, far[3]!) - Math.max(far[0]!, far[1]!)) / pxPerMm2,
  };
}

/**
 * A straight line through the ink on the paper ring when that ink does not show on just one pair of
 * opposite sides: a stroke crossing the bubble diagonally leaves it in two opposite corners, where the
 * ring's sides meet (on all four sides, or too little on any one of them). The
 * ink's main direction splits it into its two ends (each at least `minEnd` pixels); the line runs
 * through their median points, and nearly all of the ink must lie within `maxHalf` of it (a fill
 * spilling over its outline all round, or a line over such a fill, is no thin line). Null otherwise.
 */
function diagonalLine(
  ringCount: number,
  lineBelow: number,
  minEnd: number,
  maxHalf: number,
  centre: { x: number; y: number },
): Band | null {
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < ringCount; i += 1) {
    if (ringValues[i]! >= lineBelow) continue;
    n += 1;
    sx += ringX[i]!;
    sy += ringY[i]!;
  }
  if (n < 2 * minEnd) return null;
  const mx = sx / n;
  const my = sy / n;
  let xx = 0;
  let xy = 0;
  let yy = 0;
  for (let i = 0; i < ringCount; i += 1) {
    if (ringValues[i]! >= lineBelow) continue;
    const dx = ringX[i]! - mx;
    const dy = ringY[i]! - my;
    xx += dx * dx;
    xy += dx * dy;
    yy += dy * dy;
  }
  // The main axis of the ink (the larger eigenvector of its scatter).
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  const [ux, uy] = [Math.cos(angle), Math.sin(angle)];
  const xs: [number[], number[]] = [[], []];
  const ys: [number[], number[]] = [[], []];
  for (let i = 0; i < ringCount; i += 1) {
    if (ringValues[i]! >= lineBelow) continue;
    const k = (ringX[i]! - mx) * ux + (ringY[i]! - my) * uy < 0 ? 0 : 1;
    xs[k].push(ringX[i]!);
    ys[k].push(ringY[i]!);
  }
  if (xs[0].length < minEnd || xs[1].length < minEnd) return null;
  const px = quantile(xs[0], 0.5);
  const py = quantile(ys[0], 0.5);
  const dx = quantile(xs[1], 0.5) - px;
  const dy = quantile(ys[1], 0.5) - py;
  const length = Math.hypot(dx, dy);
  if (length === 0) return null;
  // The two ends lie on either side of the bubble (a stroke ending inside it, a tick's arm poking out, is no line across it).
  const along = ((centre.x - px) * dx + (centre.y - py) * dy) / length;
  if (along < 0.25 * length || along > 0.75 * length) return null;
  const nx = -dy / length;
  const ny = dx / length;
  // Diagonal: a line near level or upright shows on one pair of sides; ink left and right only is the
  // printed outline itself, seen on the ring when the placement is a little off.
  if (Math.min(Math.abs(nx), Math.abs(ny)) < DIAGONAL_MIN_SIN) return null;
  const distances = [0, 1].flatMap((k) => xs[k]!.map((x, i) => Math.abs((x - px) * nx + (ys[k]![i]! - py) * ny)));
  const half = quantile(distances, LINE_WIDTH_QUANTILE);
  return half <= maxHalf ? { x: px, y: py, nx, ny, half: half + LINE_MARGIN_PX } : null;
}

/** The fill of one bubble, 0 (paper) to 1 (as dark as the printed fiducials). */
export function bubbleFill(img: GreyImage, t: AffineTransform, inverse: AffineTransform, bubble: Bubble, black: number): number {
  return measureBubble(img, t, inverse, bubble, black).fill;
}

/** The page's empty bubbles as a population: level (first quartile) and robust spread. */
export type Population = { level: number; spread: number };

/**
 * The empty population of a page's values. Most bubbles of a page are empty (one of four options of a
 * single-choice question, one to three of five of a multiple-choice one), so the lower part of the
 * distribution is theirs: the first quartile is its level, the tenth to fortieth percentiles its spread.
 */
export function emptyPopulation(values: readonly number[]): Population {
  const level = quantile(values, 0.25);
  const spread = Math.max(EMPTY_SPREAD_FLOOR, (quantile(values, 0.4) - quantile(values, 0.1)) / 1.03);
  return { level, spread };
}

export type PageThreshold = {
  /** Value (ink share or fill) from which a bubble is marked. */
  threshold: number;
  /** The lowest value a mark may have: the page's empty level plus a rise or four spreads. */
  floor: number;
  /** Width of the gap the threshold sits in (0 on the fallback). */
  gap: number;
  fallback: boolean;
};

/**
 * The page's threshold on one measure: the middle of the first gap of at least MIN_GAP above the floor
 * (the empty level plus `rise` or four spreads), so a page of light marks or ticks is split where its
 * own marks begin; `fallback` (or the floor, if higher) when no such gap exists.
 */
export function pageThreshold(
  values: readonly number[],
  empty: Population,
  rise = MIN_MARK_RISE,
  fallback = FALLBACK_INK,
): PageThreshold {
  const floor = empty.level + Math.max(rise, 4 * empty.spread);
  const sorted = [...values].sort((p, q) => p - q);
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const high = sorted[i + 1] as number;
    if (high <= floor) continue;
    const low = Math.max(sorted[i] as number, floor);
    if (high - low >= MIN_GAP) return { threshold: (low + high) / 2, floor, gap: high - low, fallback: false };
  }
  return { threshold: Math.max(floor, fallback), floor, gap: 0, fallback: true };
}

/** What a page says about its bubbles: thresholds on ink and fill, the empty populations, the marks' fill level. */
export type PageModel = {
  ink: PageThreshold;
  fill: PageThreshold;
  emptyInk: Population;
  emptyFill: Population;
  /** Typical fill of the page's marks. */
  markFill: number;
  /** Separate specks of ink in the page's empty bubbles (a 1-bit scan turns printed grey to specks too). */
  emptySpecks: Population;
};

/** Where a fill sits between the page's empty level (0) and its marks' level (1). */
export function fillShare(fill: number, model: PageModel): number {
  return (fill - model.emptyFill.level) / Math.max(0.15, model.markFill - model.emptyFill.level);
}

/**
 * Whether a bubble is marked: ink above the ink threshold, or (light pencil, no ink) fill above the
 * fill threshold, or read as a stroke mark (a tick, a cross, a dot: stroke-marks.ts).
 */
export function isMarked(m: Pick<BubbleMeasure, 'fill' | 'ink'> & { stroke?: boolean }, model: PageModel): boolean {
  return m.ink >= model.ink.threshold || m.fill >= model.fill.threshold || m.stroke === true;
}

const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

/**
 * How sure a grey without ink is a mark, from its rise above the page's empty level alone: the doubt
 * floor up to `ERASURE_RISE` (what a rubber leaves), climbing to 1 at `FIRM_RISE`. Unclamped below
 * with `clamp` false (bubbleConfidence weighs it against the page's marks).
 */
export function riseConfidence(rise: number, clamp = true): number {
  const c = DOUBT_FLOOR + ((1 - DOUBT_FLOOR) * (rise - ERASURE_RISE)) / (FIRM_RISE - ERASURE_RISE);
  return clamp ? Math.max(DOUBT_FLOOR, Math.min(1, c)) : c;
}

/**
 * How sure a bubble's reading is, from its distance to both populations of its page. A mark with ink:
 * by how far its ink rises above the floor. A mark by fill alone: by where its fill sits between the
 * page's empty and marked levels (half way is never certain). An empty bubble: by how far its ink and
 * fill stay within the page's empty population.
 */
export function bubbleConfidence(
  m: Pick<BubbleMeasure, 'fill' | 'ink'> & { specks?: number; edgeInk?: number },
  model: PageModel,
): number {
  const share = fillShare(m.fill, model);
  if (m.ink >= model.ink.threshold || m.fill >= model.fill.threshold) {
    // Marked: as sure as the stronger of its two kinds of evidence.
    const byInk = m.ink >= model.ink.threshold ? (m.ink - model.ink.floor) / MARK_SPAN : 0;
    let byFill = 0;
    if (m.fill >= model.fill.threshold) {
      const byShare = DOUBT_FLOOR + ((1 - DOUBT_FLOOR) * (share - DOUBT_SHARE)) / (SURE_SHARE - DOUBT_SHARE);
      const byRise = riseConfidence(m.fill - model.emptyFill.level, false);
      byFill = Math.min(Math.max(byShare, byRise), (m.fill - model.fill.floor) / MARK_SPAN);
    }
    return clamp01(Math.max(byInk, byFill));
  }
  const doubt = (excess: number, span: number) =>
    excess <= 0 ? 1 : Math.max(DOUBT_FLOOR, 1 - ((1 - DOUBT_FLOOR) * excess) / span);
  // Ink only along the inside's edge, and little of it: the printed outline, not pencil. (A bubble
  // read beside a line or streak carries edgeInk 0: what is left of a tick under a line can lie at
  // the edge too.)
  const outline = (m.edgeInk ?? 0) >= OUTLINE_EDGE_SHARE && m.ink <= OUTLINE_MAX_INK;
  const byInk = outline
    ? 1
    : doubt(m.ink - model.emptyInk.level - Math.max(EMPTY_INK_START, 3 * model.emptyInk.spread), EMPTY_INK_SPAN);
  const byFill = doubt(m.fill - model.emptyFill.level - emptyDoubtRise(model), EMPTY_FILL_SPAN);
  const byShare = doubt(share - EMPTY_SHARE, DOUBT_SHARE - EMPTY_SHARE);
  // More scattered specks than the page's empty bubbles have: what a 1-bit scan leaves of faint pencil.
  const specksAbove = (m.specks ?? 0) - model.emptySpecks.level - 3 * model.emptySpecks.spread;
  const bySpecks = specksAbove >= SPECKLE_DOUBT && !outline ? DOUBT_FLOOR : 1;
  // Just under a threshold is never sure either.
  const byThreshold = Math.min(
    (model.ink.threshold - m.ink) / (MARK_SPAN / 2),
    (model.fill.threshold - m.fill) / (MARK_SPAN / 2),
  );
  return clamp01(Math.min(byInk, byFill, byShare, bySpecks, byThreshold));
}

/** The page model of a page's measured bubbles (those a line runs through left out). */
export function pageModel(bubbles: readonly (Pick<BubbleMeasure, 'fill' | 'ink'> & { specks?: number })[]): PageModel {
  const emptyInk = emptyPopulation(bubbles.map((b) => b.ink));
  const emptyFill = emptyPopulation(bubbles.map((b) => b.fill));
  const ink = pageThreshold(
    bubbles.map((b) => b.ink),
    emptyInk,
  );
  const fill = pageThreshold(
    bubbles.map((b) => b.fill),
    emptyFill,
    MIN_FILL_RISE,
    FALLBACK_FILL,
  );
  const marks = bubbles.filter((b) => b.ink >= ink.threshold || b.fill >= fill.threshold).map((b) => b.fill);
  const markFill = marks.length > 0 ? quantile(marks, 0.5) : Math.max(DEFAULT_MARK_FILL, emptyFill.level + 0.5);
  const specks = emptyPopulation(bubbles.map((b) => b.specks ?? 0));
  return { ink, fill, emptyInk, emptyFill, markFill, emptySpecks: { level: specks.level, spread: Math.max(1, specks.spread) } };
}

/** A placement of the template on the image: the affine transform that holds near a template point. */
export type LocalTransform = (xMm: number, yMm: number) => AffineTransform;

export type ObjectiveResult = {
  readings: ObjectiveReading[];
  problems: RecognitionProblem[];
  model: PageModel;
  /** Image columns of streaks found running down the page. */
  streaks: number[];
  /** Every bubble's measures, per question in layout order (for tests and tuning). */
  measures: { questionNo: number; bubbles: Measured[] }[];
  /**
   * Questions held back by a doubt the page's calibration cannot settle: a bubble's confidence brought
   * under LOW_CONFIDENCE by something other than where it sits between the page's populations (an
   * erasure, light strokes, a grey, a line).
   */
  otherDoubts: number[];
};

/**
 * A bubble as read: `line` a line runs through it that could not be read around (its confidence is
 * capped), `streak` it was read beside a streak down the page, `crossed` beside a pencil line across it.
 */
type Measured = BubbleMeasure & {
  label: string;
  line: boolean;
  streak: boolean;
  crossed: boolean;
  /**
   * Read beside a line across it (`crossed`), its band took no more ink than the rest of the bubble
   * kept: the band missed the stroke (laid from a tick's vertex on one side of the ring to its long
   * arm on the other), and what is read beside it holds that stroke.
   */
  bandOff?: boolean;
  /** The band (a line's or a streak's) the bubble was read beside, when it was. */
  besideBand?: Band;
  stroke?: boolean;
  ring: number;
};

/**
 * Streaks down the page: vertical crossings of two or more bubbles at the same image column. Returns
 * each streak's column and width in pixels (its narrowest crossing: a mark spilling over an outline where the
 * streak crosses it widens that crossing; the dark columns measured around each crossed bubble give the rest).
 */
export function findStreaks(crossings: readonly { x: number; width: number }[], pxPerMm: number): { x: number; width: number }[] {
  const streaks: { x: number; width: number; n: number }[] = [];
  for (const c of [...crossings].sort((p, q) => p.x - q.x)) {
    const last = streaks.at(-1);
    if (last && Math.abs(c.x - last.x / last.n) <= STREAK_MATCH_MM * pxPerMm) {
      last.x += c.x;
      last.width = Math.min(last.width, c.width);
      last.n += 1;
    } else streaks.push({ x: c.x, width: c.width, n: 1 });
  }
  return streaks.filter((s) => s.n >= 2).map((s) => ({ x: s.x / s.n, width: s.width }));
}

/**
 * Image columns between x0 and x1 that are dark (below `below`) over `share` (nearly all) of `spanPx`
 * rows centred on y: a streak of the scanner's glass. Returns them as bands [from, to].
 */
export function darkColumns(
  img: GreyImage,
  x0: number,
  x1: number,
  y: number,
  spanPx: number,
  below: number,
  share = STREAK_SHARE,
): [number, number][] {
  const top = Math.max(0, Math.round(y - spanPx / 2));
  const bottom = Math.min(img.height - 1, Math.round(y + spanPx / 2));
  const step = Math.max(1, Math.round((bottom - top) / 120));
  const bands: [number, number][] = [];
  for (let x = Math.max(0, Math.floor(x0)); x <= Math.min(img.width - 1, Math.ceil(x1)); x += 1) {
    let dark = 0;
    let seen = 0;
    for (let row = top; row <= bottom; row += step) {
      seen += 1;
      if ((img.data[row * img.width + x] as number) < below) dark += 1;
    }
    if (seen < 20 || dark < share * seen) continue;
    const last = bands.at(-1);
    if (last && last[1] === x - 1) last[1] = x;
    else bands.push([x, x]);
  }
  return bands;
}

function mergeBands(bands: readonly [number, number][]): [number, number][] {
  const sorted = [...bands].sort((p, q) => p[0] - q[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/**
 * The grey bubbles of one question beside a firm mark of it (a bubble marked with ink and full
 * confidence): grey with less ink than a mark, no line through it (nor one left out), under
 * `GREY_DOUBT_RISE` above the page's empty level. Each is an `erasure` (the student changed the answer:
 * it reads empty) when it has no ink or speckle and rises under `ERASURE_RISE` and under
 * `ERASURE_OF_FIRM` of the firm mark's rise; otherwise it is a `second` light mark or an erasure, nothing says which (a page of light
 * pencil: the firm mark is light itself, or the page's light marks make such a grey look sure), and
 * it is never certain. A grey bubble alone on its question stays doubtful too.
 */
export function greyBesideFirmMarks<
  B extends Pick<BubbleMeasure, 'fill' | 'ink' | 'specks'> & { line: boolean; crossed?: boolean },
>(bubbles: readonly B[], model: PageModel): Map<B, 'erasure' | 'second'> {
  const grey = new Map<B, 'erasure' | 'second'>();
  const firm = bubbles.filter((b) => !b.line && !b.crossed && b.ink >= model.ink.threshold && bubbleConfidence(b, model) >= 1);
  if (firm.length === 0) return grey;
  // What a rubber leaves of a mark is much lighter than the student's firm mark beside it.
  const firmRise = Math.max(...firm.map((b) => b.fill)) - model.emptyFill.level;
  const noInk = model.emptyInk.level + Math.max(EMPTY_INK_START, 3 * model.emptyInk.spread);
  const specksAbove = (b: Pick<BubbleMeasure, 'specks'>) => b.specks - model.emptySpecks.level - 3 * model.emptySpecks.spread;
  for (const b of bubbles) {
    if (b.line || b.crossed || b.ink >= model.ink.threshold) continue;
    const rise = b.fill - model.emptyFill.level;
    if (rise <= emptyDoubtRise(model) || rise >= GREY_DOUBT_RISE) continue;
    const clean = b.ink <= noInk && specksAbove(b) < SPECKLE_DOUBT;
    grey.set(b, clean && rise < ERASURE_RISE && rise <= ERASURE_OF_FIRM * firmRise ? 'erasure' : 'second');
  }
  return grey;
}

/**
 * Whether every other mark of a bubble's question (none with a line, cross or streak through it) is a
 * fill, ink over `SOLID_INK` of its bubble, and there is one: no tick or light mark beside it.
 */
export function onlyFillsBeside<B extends GreyCandidate>(b: B, bubbles: readonly B[], model: PageModel): boolean {
  const beside = bubbles.filter((o) => o !== b && !o.line && !o.crossed && !o.streak && isMarked(o, model));
  return beside.length > 0 && beside.every((o) => o.ink >= SOLID_INK);
}

/** The bubbles of one question that read empty as what a rubber left beside a firm mark (`greyBesideFirmMarks`). */
export function erasuresBesideMarks<
  B extends Pick<BubbleMeasure, 'fill' | 'ink' | 'specks'> & { line: boolean; crossed?: boolean },
>(bubbles: readonly B[], model: PageModel): Set<B> {
  return new Set([...greyBesideFirmMarks(bubbles, model)].filter(([, kind]) => kind === 'erasure').map(([b]) => b));
}

/**
 * What a page's fills say about its greys (`pageFills`): the fills' typical rise above the empty level,
 * and, on a page of firm marks, the erasure ceiling (null on any other page).
 */
export type PageFills = { fillRise: number; erasureCeiling: number | null };

type GreyCandidate = Pick<BubbleMeasure, 'fill' | 'ink' | 'specks'> & { line: boolean; crossed?: boolean; streak?: boolean };

/**
 * A grey with no pencil in it, what a rubber leaves: no speckle, and no more ink than the page's empty
 * bubbles have or `SMOOTH_INK` (a scanner's noise and JPEG put a few pixels of a grey 150 past the ink
 * level; pencil that leaves any ink leaves more).
 */
function smoothGrey(b: GreyCandidate, model: PageModel): boolean {
  const noInk = model.emptyInk.level + Math.max(EMPTY_INK_START, 3 * model.emptyInk.spread);
  return (
    b.ink <= Math.max(noInk, SMOOTH_INK) && b.specks - model.emptySpecks.level - 3 * model.emptySpecks.spread < SPECKLE_DOUBT
  );
}

/**
 * Three populations on a page: the empty bubbles, the student's marks, and what a rubber left. A page
 * with at least `FIRM_PAGE_MARKS` fills (ink over `SOLID_INK` of the bubble) shows how the student
 * marks; `fillRise` is their median rise above the empty level. When nothing else on the page is pencil
 * lighter than `LIGHT_OF_FIRM` of that (no light mark, tick, cross or partial fill, no speckle, no grey
 * with pencil in it or too dark for a rubber), the page's marks are firm and the three populations
 * stand apart: a smooth grey under the `erasureCeiling` is what a rubber left. The ceiling is
 * `ERASURE_OF_FIRM` of the page's lighter fills (the tenth percentile of their rise), and never above
 * `GREY_DOUBT_RISE`, where a careful student's light pencil begins. Null with too few fills.
 */
export function pageFills(bubbles: readonly GreyCandidate[], model: PageModel): PageFills | null {
  const rise = (b: GreyCandidate) => b.fill - model.emptyFill.level;
  const readable = bubbles.filter((b) => !b.line);
  const fills = readable.filter((b) => !b.crossed && !b.streak && b.ink >= SOLID_INK && isMarked(b, model));
  if (fills.length < FIRM_PAGE_MARKS) return null;
  const fillRise = quantile(fills.map(rise), 0.5);
  const firm = new Set(fills.filter((b) => rise(b) >= LIGHT_OF_FIRM * fillRise));
  if (firm.size < FIRM_PAGE_MARKS) return { fillRise, erasureCeiling: null };
  const ceiling = Math.min(GREY_DOUBT_RISE, ERASURE_OF_FIRM * quantile([...firm].map(rise), 0.1));
  const emptyRise = emptyDoubtRise(model);
  for (const b of readable) {
    if (firm.has(b)) continue;
    const smooth = smoothGrey(b, model);
    // A rubbed grey (or an empty bubble): what the page is about.
    if (smooth && rise(b) < ceiling) continue;
    // A mark lighter than the fills, speckle, a grey with pencil in it or too dark for a rubber.
    if (isMarked(b, model) || rise(b) > emptyRise || !smoothGrey({ ...b, ink: 0 }, model)) {
      return { fillRise, erasureCeiling: null };
    }
  }
  return { fillRise, erasureCeiling: ceiling };
}

/**
 * How surely a bubble reads empty as what a rubber left on a page of firm marks (`pageFills`), beside a
 * firm mark of its question or alone: `ERASURE_CONFIDENCE`, falling to the doubt floor over the last
 * `ERASURE_MARGIN` under the page's ceiling. Null when it is no smooth grey under that ceiling (or
 * rises no more than an empty bubble may), a line runs through it, or the page's marks are not firm.
 */
export function rubbedGreyConfidence(b: GreyCandidate, model: PageModel, fills: PageFills | null): number | null {
  const ceiling = fills?.erasureCeiling ?? null;
  if (ceiling === null || b.line || b.crossed || b.streak) return null;
  const rise = b.fill - model.emptyFill.level;
  if (!smoothGrey(b, model) || rise <= emptyDoubtRise(model) || rise >= ceiling) return null;
  return DOUBT_FLOOR + (ERASURE_CONFIDENCE - DOUBT_FLOOR) * Math.min(1, (ceiling - rise) / ERASURE_MARGIN);
}

/**
 * A grey read as a mark by its fill alone (ink under the page's threshold and under `GREY_MARK_INK`),
 * on a page with fills, rising under `GREY_DOUBT_RISE` and under `ERASURE_OF_FIRM` of the fills: what
 * a rubber leaves or a very light mark, nothing says which (a scanner's noise puts specks of ink into a
 * grey 150 as into light pencil). It is never surer than its rise alone makes it, however light the
 * page's other marks are (light pencil and half-erased marks pull the page's marked level down, so
 * such a grey would sit high between that level and the empty one). Its cap, or 1.
 */
export function greyMarkCap(b: GreyCandidate, model: PageModel, fills: PageFills | null): number {
  if (fills === null || b.ink >= Math.min(model.ink.threshold, GREY_MARK_INK) || !isMarked(b, model)) return 1;
  const rise = b.fill - model.emptyFill.level;
  return rise < Math.min(GREY_DOUBT_RISE, ERASURE_OF_FIRM * fills.fillRise) ? riseConfidence(rise) : 1;
}

/** Unmarked bubbles within this distance (mm, centre to centre) are a bubble's neighbourhood; at least `LOCAL_MIN` of them make one. */
export const LOCAL_RADIUS_MM = 20;
const LOCAL_MIN = 8;

/**
 * The page model an unmarked bubble's confidence is judged against: the page's, with its empty levels
 * (ink, fill, specks) raised to the median of the unmarked bubbles around it where those are higher.
 * A part of a page where every empty bubble carries a little of its printed outline or of a shadow
 * (a photo's curled edge, a fit a little off there) does not doubt each of them; a trace of pencil
 * among clean neighbours still stands out as before. Marks and thresholds stay the page's.
 */
export function localEmptyModel(
  bubble: Pick<BubbleMeasure, 'fill' | 'ink' | 'specks'>,
  at: { xMm: number; yMm: number; wMm: number; hMm: number },
  neighbours: readonly { b: Pick<BubbleMeasure, 'fill' | 'ink' | 'specks'>; x: number; y: number }[],
  model: PageModel,
): PageModel {
  const x = at.xMm + at.wMm / 2;
  const y = at.yMm + at.hMm / 2;
  const near = neighbours.filter((n) => n.b !== bubble && Math.hypot(n.x - x, n.y - y) <= LOCAL_RADIUS_MM);
  if (near.length < LOCAL_MIN) return model;
  const ink = quantile(
    near.map((n) => n.b.ink),
    0.5,
  );
  const fill = quantile(
    near.map((n) => n.b.fill),
    0.5,
  );
  const specks = quantile(
    near.map((n) => n.b.specks),
    0.5,
  );
  if (ink <= model.emptyInk.level && fill <= model.emptyFill.level && specks <= model.emptySpecks.level) return model;
  return {
    ...model,
    emptyInk: { ...model.emptyInk, level: Math.max(model.emptyInk.level, ink) },
    emptyFill: { ...model.emptyFill, level: Math.max(model.emptyFill.level, fill) },
    emptySpecks: { ...model.emptySpecks, level: Math.max(model.emptySpecks.level, specks) },
  };
}

/**
 * How sure each empty-read bubble is that no light stroke lies in it, against the page's other empty
 * bubbles of the same option letter: a tick or a cross of pencil that a scan's gamma or contrast (or
 * a hard pencil) leaves lighter than ink adds little to a bubble's mean darkness, but its strokes
 * darken part of the core beyond what the printed letter does in every empty bubble of that letter.
 * What a rubber leaves (lighter still) and a dust speck (too small) stay under the start. Bubbles a
 * line or streak runs through are judged by their own rules and left out, as are those `exempt` names
 * (given the rise of their core). A letter with fewer than `LIGHT_MIN_PEERS` empty bubbles on the page
 * is judged against the darkest letter that has them, or against its own other empty bubbles where
 * even the darkest of those is lighter (a contrasty scan prints T far lighter than B: a tick over T
 * rising 0.13 above the other empty T stayed under B's level). Returns a confidence cap per bubble, 1
 * when clear.
 */
export function lightStrokeCaps<B extends Pick<BubbleMeasure, 'coreLight'> & { label: string }>(
  empty: readonly B[],
  exempt: (b: B, rise: number) => boolean = () => false,
): Map<B, number> {
  const byLabel = new Map<string, B[]>();
  for (const b of empty) byLabel.set(b.label, [...(byLabel.get(b.label) ?? []), b]);
  const levels = new Map(
    [...byLabel]
      .filter(([, peers]) => peers.length >= LIGHT_MIN_PEERS)
      .map(([label, peers]) => [
        label,
        quantile(
          peers.map((o) => o.coreLight),
          0.5,
        ),
      ]),
  );
  // A letter with too few empty bubbles of its own may be as dark as the darkest known one.
  const darkest = levels.size > 0 ? Math.max(...levels.values()) : null;
  const caps = new Map<B, number>();
  for (const b of empty) {
    const others = levels.has(b.label)
      ? []
      : byLabel
          .get(b.label)!
          .filter((o) => o !== b)
          .map((o) => o.coreLight);
    const own = others.length > 0 ? Math.max(...others) : null;
    const level = levels.get(b.label) ?? (darkest === null || own === null ? darkest : Math.min(darkest, own));
    if (level === null) continue;
    const rise = b.coreLight - level;
    if (rise <= LIGHT_RISE_START || exempt(b, rise)) continue;
    caps.set(b, Math.max(DOUBT_FLOOR, 1 - ((1 - DOUBT_FLOOR) * (rise - LIGHT_RISE_START)) / LIGHT_RISE_SPAN));
  }
  return caps;
}

/**
 * Whether a grey whose core rises `lightRise` above the empty bubbles of its letter is a wash (what a
 * rubber leaves over the whole bubble) rather than light strokes: it darkens the whole core, or it
 * darkens the bubble more than strokes lighter than ink could (their darkness is under `INK_LEVEL`,
 * with paper between them, so they add at most about half their share of the core to the fill).
 */
export function washOverCore(b: Pick<BubbleMeasure, 'fill' | 'coreLight'>, model: PageModel, lightRise: number): boolean {
  return b.coreLight >= WASH_CORE || b.fill - model.emptyFill.level > STROKES_FILL_SHARE * lightRise;
}

/**
 * Reads every objective question of a page: ink, marks, confidences and the problems they raise.
 * `oneBit`: the page is a 1-bit scan (`img` its black density); `photo`: a phone photo rectified to a scan.
 */
export function readObjective(
  img: GreyImage,
  place: AffineTransform | LocalTransform,
  questions: readonly ObjectiveQuestionLayout[],
  black: number,
  oneBit: { raw: GreyImage } | null = null,
  photo = false,
): ObjectiveResult {
  const local: LocalTransform = typeof place === 'function' ? place : () => place;
  type Placed = { bubble: Bubble; t: AffineTransform; inverse: AffineTransform; pxPerMm: number };
  const placed = new Map<Bubble, Placed>();
  const at = (bubble: Bubble): Placed => {
    let p = placed.get(bubble);
    if (!p) {
      const t = local(bubble.xMm + bubble.wMm / 2, bubble.yMm + bubble.hMm / 2);
      p = { bubble, t, inverse: invertAffine(t), pxPerMm: Math.sqrt(Math.abs(t.a * t.d - t.b * t.c)) };
      placed.set(bubble, p);
    }
    return p;
  };
  const measured = questions.map((q) => ({
    q,
    bubbles: q.options.map((o): Measured => {
      const p = at(o);
      return {
        label: o.label,
        ...measureBubble(img, p.t, p.inverse, o, black),
        line: false,
        streak: false,
        crossed: false,
        ring: 0,
      };
    }),
  }));
  const all = measured.flatMap((m) => m.bubbles.map((b, i) => ({ b, option: m.q.options[i]! })));
  const pxPerMm = all.length > 0 ? at(all[0]!.option).pxPerMm : 1;
  // Streaks down the page: image columns dark over STREAK_SPAN_MM around a bubble with some ink or a
  // line through it (no pencil stroke runs that far straight down), and crossings of two or more
  // bubbles at one column.
  const whites = all.map(({ b }) => b.white).sort((p, q) => p - q);
  const paperWhite = whites[Math.floor(whites.length / 2)] ?? 255;
  const lineBelow = levelBelow(LINE_LEVEL, paperWhite, black);
  // A crossing as wide as much of the bubble is a mark spilling over its outline above and below.
  const darkBands: [number, number][] = findStreaks(
    all
      .filter(({ b, option }) => b.vertical && b.lineWidthPx <= STREAK_MAX_WIDTH_SHARE * option.wMm * pxPerMm)
      .map(({ b }) => ({ x: b.lineX, width: b.lineWidthPx })),
    pxPerMm,
  ).map((st) => [st.x - st.width / 2, st.x + st.width / 2]);
  const brightBands: [number, number][] = [];
  for (const { b, option } of all) {
    if (!b.vertical && b.ink < STREAK_CHECK_INK) continue;
    const p = at(option);
    const centre = applyAffine(p.t, option.xMm + option.wMm / 2, option.yMm + option.hMm / 2);
    const half = (option.wMm / 2) * p.pxPerMm;
    darkBands.push(...darkColumns(img, centre.x - half, centre.x + half, centre.y, STREAK_SPAN_MM * p.pxPerMm, lineBelow));
    // A white streak (a dead sensor pixel) takes ink out of a mark: only where there is ink does it matter.
    if (b.ink >= STREAK_CHECK_INK) {
      brightBands.push(...brightColumns(img, centre.x - half, centre.x + half, centre.y, STREAK_SPAN_MM * p.pxPerMm, b.white));
    }
  }
  const merged = mergeBands([...darkBands, ...brightBands]);
  const strokesUnderStreak = new Set<Measured>();
  for (const { b, option } of all) {
    const p = at(option);
    const centre = applyAffine(p.t, option.xMm + option.wMm / 2, option.yMm + option.hMm / 2);
    const half = (option.wMm / 2) * p.pxPerMm;
    // A streak down the paper just beside the outline shows on the ring above and below as a line
    // through the bubble would: the streak explains it, and misses the inside.
    const reach = b.vertical ? half + PAPER_MARGIN_MM * p.pxPerMm : half;
    const band = merged.find(([x0, x1]) => x1 >= centre.x - reach && x0 <= centre.x + reach);
    if (band) {
      // Read beside the streak: its columns and a pixel and a half either side are left out.
      const streakBand = columnBand(band[0] - 1.5, band[1] + 1.5);
      let beside = measureBubble(img, p.t, p.inverse, option, black, streakBand);
      let besideBand = streakBand;
      // A slanted pencil line down the page passes bubbles of one column at nearly one image column,
      // like a streak, but leaves ink beside the columns, or spans so many of them that too little is
      // left: read beside the line itself when that leaves enough to read and less ink.
      const tooHidden = beside.hidden > 1 - MIN_SEEN_SHARE;
      let endsInside = false;
      if (b.across && (beside.ink >= STREAK_CHECK_INK || tooHidden)) {
        const alongLine = measureBubble(img, p.t, p.inverse, option, black, b.across);
        if (alongLine.hidden <= 1 - MIN_SEEN_SHARE && (tooHidden || alongLine.ink < beside.ink)) {
          beside = alongLine;
          besideBand = b.across;
          // The line runs through the bubble only if its band took a line's ink: a band that took less held
          // a mark's strokes where a line from outside ends (a tick at the end of a wide stray line from below).
          endsInside = b.ink - alongLine.ink * (1 - alongLine.hidden) < THROUGH_INK_SHARE * alongLine.hidden;
          b.crossed = !endsInside;
        }
      }
      // Ink left beside the streak that hugs its edges is the streak's own spill (a wide stray line
      // slanting down the column leaves its columns inside the bubble): read beside a band `SPILL_MM`
      // wider when that takes most of the ink away, and no reading when too little is left then. A white
      // streak spills nothing: ink at its edges is a mark's strokes it cut (a tick across it).
      let spilled = false;
      const dark = darkBands.some(([x0, x1]) => x1 >= band[0] && x0 <= band[1]);
      const spillBand = columnBand(band[0] - 1.5 - SPILL_MM * p.pxPerMm, band[1] + 1.5 + SPILL_MM * p.pxPerMm);
      if (dark && !b.crossed && beside.ink >= STREAK_CHECK_INK) {
        const wider = measureBubble(img, p.t, p.inverse, option, black, spillBand);
        if (wider.ink < SPILL_INK_SHARE * beside.ink) {
          spilled = wider.hidden > 1 - SPILL_MIN_SEEN_SHARE;
          beside = wider;
          besideBand = spillBand;
        }
      }
      // Too little left beside the streak to read at all, or a line that ends inside: never certain
      // (less than enough: see seenConfidence).
      // Ink left beside it where a long stroke runs in past the streak (a stray line crossing the
      // column): what is left may be that stroke, not a mark; the bubble stays under its line.
      const second = () => strayEntry(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black), streakBand).kind !== 'none';
      const line =
        endsInside ||
        spilled ||
        beside.horizontal ||
        beside.hidden > 1 - STREAK_MIN_SEEN_SHARE ||
        (!b.crossed && beside.ink >= STREAK_CHECK_INK && second());
      // Read empty beside a dark streak, pencil crossing the paper around the bubble beside its spill: a stroke
      // that touches the bubble and runs on under the streak, where its mark may lie (held-out streakVariety-609
      // q10: a tick whose vertex and short arm lie at B's outline and whose long arm crosses a 2.6 mm streak, B
      // read empty at 0.85, the question blank). On a question read blank such a bubble goes to a person (2 -> 3
      // of the accuracy bench's 40 pages of column streaks to review); on any question that costs too much (a
      // streak's ragged edge crosses the ring as well: 2 -> 9).
      if (
        dark &&
        !line &&
        beside.ink < STREAK_CHECK_INK &&
        runOutOfBubble(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black), DOT_MAX_RUN_OUT_MM, spillBand) > 0
      ) {
        strokesUnderStreak.add(b);
      }
      Object.assign(b, {
        fill: beside.fill,
        ink: beside.ink,
        specks: beside.specks,
        edgeInk: 0,
        hidden: beside.hidden,
        streak: true,
        line,
        besideBand,
      });
    } else {
      b.line = b.vertical || b.horizontal || b.diagonal;
      if (b.line && b.across && b.ink < SOLID_INK) {
        // A pencil line across the bubble and beyond it: the bubble is read on the pixels beside the
        // line. What is left says whether there is a mark under it (a fill, a tick's other arm, grey, speckle).
        const beside = measureBubble(img, p.t, p.inverse, option, black, b.across);
        // Ink left beside it where another long stroke runs in (two stray lines crossing in the
        // bubble): what is left may be that stroke, not a mark; the bubble stays under its line.
        const second = () => strayEntry(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black), b.across!).kind !== 'none';
        if (
          beside.hidden <= 1 - MIN_SEEN_SHARE &&
          !(beside.ink >= STREAK_CHECK_INK && second()) &&
          !bandMissedOneStroke(img, b, beside, option, black, p)
        ) {
          const bandOff = beside.ink >= b.ink;
          readBesideLine(b, beside, b.across);
          Object.assign(b, { line: false, bandOff });
        }
      }
    }
  }
  // Read beside a stray stroke, bubbles whose whole inside ink is one straight stroke: what is left beside the
  // band is the stroke's own ragged edge or end, the band laid off its axis there (held-out strayVariety-556 q15:
  // a 1 mm stroke starting inside D with a darker, wider end, on out of it into the next row's E, D read beside
  // E's band with ink 0.12 left, a second answer at 0.67). Read as a mark, such a bubble goes to a person.
  const strokeEdges = new Set<Measured>();
  const readBesideStroke = (b: Measured, option: Bubble, p: Placement, beside: BubbleMeasure, band: Band) => {
    if (oneStrokeInside(img, b, option, black, p)) strokeEdges.add(b);
    readBesideLine(b, beside, band);
  };
  // A stray line runs on past its bubble, into a neighbour: a neighbour with some ink that such a
  // line runs into is read beside it too.
  const crossing = all.filter(({ b }) => b.crossed);
  for (const { b, option } of crossing.length > 0 ? all : []) {
    if (b.line || b.crossed || b.streak || b.ink < STREAK_CHECK_INK || b.ink >= SOLID_INK) continue;
    const p = at(option);
    for (const source of crossing) {
      const near =
        Math.hypot(source.option.xMm - option.xMm, source.option.yMm - option.yMm) <= LINE_REACH_MM + option.wMm &&
        source.option !== option;
      if (!near) continue;
      const beside = measureBubble(img, p.t, p.inverse, option, black, source.b.across);
      if (
        beside.hidden > 0 &&
        beside.hidden <= 1 - MIN_SEEN_SHARE &&
        beside.ink < b.ink &&
        bandRunsBetween(img, p, source.b.across!, source.option, option, levelBelow(LINE_LEVEL, b.white, black))
      ) {
        readBesideStroke(b, option, p, beside, source.b.across!);
        break;
      }
    }
  }
  // A stroke that enters a bubble from one side and runs on straight well past it (a stray line that
  // ends inside the bubble, or whose crossing shows on one side only): read beside it; two such
  // strokes, or one too wide to leave out, are doubtful (stray-stroke.ts).
  const strayEnds = new Set<Measured>();
  for (const { b, option } of all) {
    if (b.line || b.crossed || b.streak || b.ink < STREAK_CHECK_INK || b.ink >= SOLID_INK) continue;
    const p = at(option);
    const entry = strayEntry(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black));
    if (entry.kind === 'none') continue;
    if (entry.kind !== 'line') {
      b.line = true;
      continue;
    }
    const beside = measureBubble(img, p.t, p.inverse, option, black, entry.band);
    if (beside.hidden > 1 - MIN_SEEN_SHARE) b.line = true;
    else if (beside.ink <= STROKE_EXPLAINS_INK * b.ink) readBesideStroke(b, option, p, beside, entry.band);
    // A band followed on a slant down a wide stroke misses its end: ink inside that is one straight stroke,
    // nothing beside a band along its own axis, is that end (or a tick's long arm alone), for a person (held-out
    // strayVariety-342 q15: a 1 mm stroke from above ending in D, its band 21 degrees off, read as a tick at 1),
    // whatever it is read as.
    else if (oneStrokeInside(img, b, option, black, p)) strayEnds.add(b);
    // Otherwise ink of its own lies beside the stroke (a checkmark's other arm, a fill): the bubble is read whole.
  }
  // A ring drawn around an option: ink on the paper all round a clean bubble (ring-mark.ts). The
  // ring is what put ink on the sides of its paper ring, no line; the bubble is read by its ring.
  const options = all.map(({ option }) => option);
  for (const { b, option } of all) {
    if (b.streak || b.ink >= RING_INSIDE_INK || !(b.vertical || b.horizontal || b.diagonal)) continue;
    b.ring = ringCover(
      ringHits(img, at(option).t, option, nearbyOutlines(option, options), levelBelow(LINE_LEVEL, b.white, black)),
    );
    if (ringed(b)) Object.assign(b, { line: false, crossed: false });
  }
  // The page's populations come from bubbles read whole: a mark read beside a streak shows more or
  // less ink than it has (a tick's strokes under it, or what a white streak took out, are left out); a
  // ringed bubble is read by its ring.
  const partly = (b: Measured) => b.streak && b.hidden > 0;
  const model = pageModel(all.filter(({ b }) => !b.line && !b.crossed && !partly(b) && !ringed(b)).map(({ b }) => b));
  const strokeContext = strokePage(all, model);
  const { strokes, straight, unproven } = strokeMarks(img, all, model, black, strokeContext, (option) => at(option));
  // A small, solid, dark dot (dot-mark.ts) is a sure mark once its ink stands above the page's empty
  // level, however little of the bubble it covers and wherever the page's threshold lies (on a page
  // of dots alone, their ink runs from a tenth to a third of the bubble with no gap to split at).
  // Only bubbles read whole, with less ink than a fill, are looked at. A dot stays inside its bubble:
  // ink that runs on straight out of it is the end of a stroke (a short stray line drawn from inside it).
  const dots = new Set(
    all
      .filter(({ b }) => !b.line && !b.crossed && !b.streak && !ringed(b) && b.ink >= model.ink.floor && b.ink < FALLBACK_INK)
      .filter(({ b, option }) => {
        const p = at(option);
        if (!isSolidDot(insideInk(img, p.t, p.inverse, option, INNER_INSET_MM, b.white, black), p.pxPerMm)) return false;
        return runOutOfBubble(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black), DOT_MAX_RUN_OUT_MM) < DOT_MAX_RUN_OUT_MM;
      })
      .map(({ b }) => b),
  );
  const readings: ObjectiveReading[] = [];
  const problems: RecognitionProblem[] = [];
  const otherDoubts: number[] = [];
  const optionOf = new Map(all.map(({ b, option }) => [b, option]));
  const neighbours = all
    .filter(({ b }) => !b.line && !b.crossed && !b.streak && !ringed(b) && !isMarked(b, model) && !dots.has(b))
    .map(({ b, option }) => ({ b, x: option.xMm + option.wMm / 2, y: option.yMm + option.hMm / 2 }));
  // On a page of firm marks, a smooth grey well under them is what a rubber left, alone or beside a mark.
  const fillsOfPage = pageFills(
    all.map(({ b }) => b),
    model,
  );
  // What a rubber left, per question: greys beside a firm mark, and the rubbed greys of a page of firm marks.
  const residues = new Set<Measured>();
  // An erasure beside a firm mark is sure only well under the page's own light marks (lone-greys.ts).
  const lightRises = loneLightMarkRises(
    measured.map(({ bubbles }) => bubbles),
    (b) => isMarked(b, model),
    model.emptyFill.level,
    model.ink.threshold,
  );
  // ... and its greys read empty alone on their questions: its light answers, where its threshold lies over them.
  const greysAlone = loneGreys(
    measured.map(({ bubbles }) => bubbles),
    (b) => isMarked(b, model),
    model.emptyFill.level,
    emptyDoubtRise(model),
  );
  const riseOf = (b: Measured) => b.fill - model.emptyFill.level;
  const lightAndLoneRises = [...lightRises, ...greysAlone.map(riseOf)];
  const erasureConfidence = (b: Measured) =>
    separatedFromLightMarks(riseOf(b), lightAndLoneRises) ? ERASURE_CONFIDENCE : DOUBT_FLOOR;
  const erasures = new Map(
    measured.map(({ bubbles }) => {
      const grey = greyBesideFirmMarks(bubbles, model);
      const erased = new Map([...grey].filter(([, kind]) => kind === 'erasure').map(([b]) => [b, erasureConfidence(b)]));
      for (const b of bubbles) {
        const rubbed = rubbedGreyConfidence(b, model, fillsOfPage);
        if (rubbed !== null) erased.set(b, Math.max(rubbed, erased.get(b) ?? 0));
        // A faint wash far under the page's firm marks: what a rubber left of one (grey-marks.ts). A
        // blurred photo spreads a light mark's strokes into such a wash with no ink: there only a fill
        // beside it on its question (the student's own answer, far darker) makes it a rubber's.
        const residue =
          isMarked(b, model) || b.line || b.crossed || b.streak || (photo && !onlyFillsBeside(b, bubbles, model))
            ? null
            : residueConfidence(b, model.emptyFill.level, fillsOfPage?.fillRise ?? null);
        if (residue !== null) {
          erased.set(b, Math.max(residue, erased.get(b) ?? 0));
          residues.add(b);
        }
      }
      const alone = (b: Measured) => !bubbles.some((other) => other !== b && isMarked(other, model) && !erased.has(other));
      return [bubbles, { grey, erased, alone }] as const;
    }),
  );
  // Light strokes are judged in erasures too (a grey read as what a rubber left may be a light tick,
  // cross or second answer), except in a wash over a bubble alone on its question, or a faint wash over
  // most of the bubble with no stroke in it (a residue): a rubber's.
  const erasedAll = new Set([...erasures.values()].flatMap(({ erased }) => [...erased.keys()]));
  const erasedMarks = [...erasedAll].filter((b) => isMarked(b, model));
  // An empty-read bubble far outside the page's empty ones and not far under its lightest mark, or less far
  // with light strokes in it: a mark a scan's gamma or contrast left lighter than any rule for strokes or
  // greys sees alone (empty-outliers.ts).
  const outlierCap = emptyOutlierCap(
    model.emptyFill.spread,
    all.filter(({ b }) => isMarked(b, model) && !b.line && !b.crossed && !b.streak).map(({ b }) => riseOf(b)),
  );
  // The page's light answers (on questions with no mark of ink), leaving out what is read as a rubber's.
  const answerRises = loneLightMarkRises(
    measured.map(({ bubbles }) => bubbles),
    (b) => isMarked(b, model) && !erasedAll.has(b),
    model.emptyFill.level,
    model.ink.threshold,
  );
  const aloneWash = new Set([...erasures.values()].flatMap(({ erased, alone }) => [...erased.keys()].filter((b) => alone(b))));
  // The page's greys alone on their questions read as a rubber's residue, and doubtfully so: light answers as much.
  const doubtfulResidues = [...erasures.values()].flatMap(({ erased }) =>
    [...erased].filter(([b, c]) => aloneWash.has(b) && residues.has(b) && c < LOW_CONFIDENCE).map(([b]) => b),
  );
  // ... and its greys read empty alone that nothing read as a rubber's: light answers under its threshold, held.
  const undecidedGreys = greysAlone.filter((b) => !erasedAll.has(b));
  // A 1-bit page (`img` its black density) split into empty bubbles and marks by black-pixel counts.
  const oneBitBubbles = oneBit
    ? all.filter(({ b }) => !b.line && !b.crossed).map(({ b }) => ({ label: b.label, root: rootCount(b.fill, b.insidePx) }))
    : [];
  const oneBitRoots = oneBitBubbles.map(({ root }) => root);
  const oneBitSplit = oneBit ? splitOneBitPage(oneBitRoots) : null;
  const oneBitLevel = oneBitEmptyLevel(oneBitRoots);
  // Each question's bubbles over a 1-bit page's split.
  const overSplit = oneBitSplit
    ? measured.map(({ bubbles }) => bubbles.filter((b) => rootCount(b.fill, b.insidePx) >= oneBitSplit.threshold))
    : [];
  // A 1-bit page whose threshold erased most of the student's marks is judged as one with no split.
  const erasedPage =
    oneBitSplit !== null && thresholdErasedMarks(overSplit.filter((marks) => marks.length === 0).length, measured.length);
  // Each letter's empty level on a split page.
  const letterMiddle = oneBitSplit ? letterEmptyMiddles(oneBitBubbles, oneBitSplit) : () => oneBitLevel;
  // A 1-bit question whose mark may have left nothing, or (no split) whose grey reading passes over black.
  const oneBitDoubt = (bubbles: readonly Measured[], marked: readonly string[]) =>
    oneBit !== null &&
    oneBitQuestionDoubt(
      bubbles.map((b) => rootCount(b.fill, b.insidePx)),
      bubbles.map((b) => marked.includes(b.label)),
      erasedPage ? null : oneBitSplit,
      oneBitLevel,
      Math.min(...bubbles.map((b) => b.insidePx)),
      bubbles.map((b) => letterMiddle(b.label)),
    );
  const lightCaps = lightStrokeCaps(
    [...neighbours.map(({ b }) => b), ...erasedMarks],
    (b, rise) => (aloneWash.has(b) || residues.has(b)) && washOverCore(b, model, rise),
  );
  // Faint 1-bit marks beside firm ones that the page does not show to be the student's way of marking.
  const marking = pageMarking(overSplit, (b) => b.fill);
  const unconfirmed = unconfirmedFaintMarks(overSplit, (b) => b.fill, marking);
  // A page the student rubbed out on, or one that shows an answer changed (rubbed-marks.ts).
  const changed = answerChanged(
    measured.map(({ q, bubbles }) => {
      const { erased } = erasures.get(bubbles)!;
      return {
        single: oneAnswer(q),
        marks: bubbles.filter((b) => isMarked(b, model) && !erased.has(b) && !b.line && !b.crossed && !b.streak),
      };
    }),
  );
  const rubbedOut = changed || rubbedPage(all.filter(({ b }) => !b.line && !b.crossed && !b.streak).map(({ b }) => b));
  // A split 1-bit page's questions read on its split, each with whether its own reading is in doubt: a mark
  // the threshold may have all but erased (`oneBitDoubt`), or a multiple-choice question marked only
  // faintly on a page whose marks fade (another mark may have left nothing).
  const oneBitReads =
    oneBit && oneBitSplit
      ? new Map(
          measured.map(({ q, bubbles }) => {
            const read = readOneBitQuestion(bubbles, oneBitSplit, unconfirmed, (b) => {
              const p = at(optionOf.get(b)!);
              return {
                pxPerMm2: p.pxPerMm ** 2,
                specks: () => measureBubble(oneBit.raw, p.t, p.inverse, p.bubble, black).specks,
              };
            });
            const faintMultiple =
              q.type === 'multiple' &&
              marksFade(oneBitSplit, Math.min(...bubbles.map((b) => b.insidePx))) &&
              markedOnlyFaintly(
                bubbles.filter((b) => read.marked.includes(b.label)).map((b) => b.fill),
                marking,
              );
            return [q, { read, doubt: oneBitDoubt(bubbles, read.marked) || faintMultiple }] as const;
          }),
        )
      : null;
  // A page whose threshold left some mark all but erased erases marks: a question read blank may have lost
  // its mark whole, a multiple-choice question a second one (held-out faint1bitThreshold-304: three
  // questions held with a few black pixels each, two more read blank surely with 3-6, and a third mark
  // of a multiple-choice question gone). The page goes to review for the first anyway.
  const erasesMarks = oneBitReads !== null && [...oneBitReads.values()].some(({ doubt }) => doubt);
  for (const { q, bubbles } of measured) {
    const oneBitRead = oneBitReads?.get(q);
    if (oneBitRead) {
      const { read, doubt } = oneBitRead;
      const mayHaveLost = erasesMarks && (read.marked.length === 0 || q.type === 'multiple');
      if (doubt || mayHaveLost) read.confidence = Math.min(read.confidence, ONE_BIT_DOUBT);
      readings.push({ questionNo: q.questionNo, fills: read.fills, marked: read.marked, confidence: read.confidence });
      problems.push(...questionProblems(q, bubbles, read, model));
      // Nothing the pooled calibration of a grey reading could settle.
      if (read.confidence < LOW_CONFIDENCE) otherDoubts.push(q.questionNo);
      continue;
    }
    const { grey, erased, alone } = erasures.get(bubbles)!;
    const marked = bubbles.filter((b) => (isMarked(b, model) && !erased.has(b)) || ringed(b) || dots.has(b)).map((b) => b.label);
    // The rise of the firm fill beside a bubble on its question (the highest), or null with none.
    const fillBeside = (b: Measured) => {
      const rises = bubbles
        .filter((o) => o !== b && !o.line && !o.crossed && !o.streak && o.ink >= SOLID_INK && isMarked(o, model))
        .map(riseOf);
      return rises.length > 0 ? Math.max(...rises) : null;
    };
    // Each bubble's confidence from where it sits between the page's populations alone (its calibration).
    // An unmarked bubble is judged against the empty bubbles around it (localEmptyModel).
    const judgedBy = bubbles.map((b) => (isMarked(b, model) ? model : localEmptyModel(b, optionOf.get(b)!, neighbours, model)));
    const plain = bubbles.map((b, i) => bubbleConfidence(b, judgedBy[i]!));
    // Beside a streak, whatever it was read as (a rubber's grey, a stroke, a fill), no surer than the share of it left
    // to see (held-out streakVariety-325 q15: a light fill under a wide dark streak, 0.3 of it left, read as a rubber's
    // grey at 0.8).
    const seenBeside = (b: Measured) => (b.streak && !b.line ? seenConfidence(1 - b.hidden, MIN_SEEN_SHARE) : 1);
    const confidenceOf = (b: Measured, i: number): number => {
      if (ringed(b) && !isMarked(b, model)) return ringConfidence(b.ring, DOUBT_FLOOR);
      if (dots.has(b)) return 1;
      // A grey read as an erasure is as doubtful as the light strokes in it: alone on its question
      // (a wash over the whole bubble left out), and beside a mark on a multiple-choice question, where
      // a second mark is legal and no double-mark rule catches it.
      const rubbed = erased.get(b);
      // Alone on its question, it is what a rubber left only well under the page's own light marks (a
      // gamma-lifted page of light answers leaves them as grey as a rubber's residue, lone-greys.ts).
      // A residue is judged against the page's doubtful lone residues too, which may be its light answers (held-out
      // gammaContrast-412 q9: three light answers alone on their questions of a gamma-lifted page, every one read as
      // a residue, two of them doubtfully, and the lightest, 0.35 of the fills, read empty at 0.65), and against its
      // other greys read empty alone and not as a rubber's (held-out gammaContrast-638 q18: the page's lightest answer,
      // rising 0.2, read as a residue at 0.67 beside a light answer rising 0.28 held as a lone grey).
      if (rubbed !== undefined) {
        const rise = riseOf(b);
        const references = residues.has(b)
          ? [...answerRises, ...[...doubtfulResidues, ...undecidedGreys].filter((o) => o !== b).map(riseOf)]
          : answerRises;
        const lone = alone(b) && !separatedFromLightMarks(rise, references);
        return Math.min(rubbed, ((alone(b) || q.type === 'multiple') && lightCaps.get(b)) || 1, lone ? LONE_GREY_CONFIDENCE : 1);
      }
      if (strayEnds.has(b) || (strokeEdges.has(b) && isMarked(b, model))) return Math.min(plain[i]!, STRAIGHT_CONFIDENCE);
      const stroke = strokes.get(b);
      if (stroke !== undefined) return Math.max(plain[i]!, stroke);
      if (straight.has(b) || unproven.has(b) || (strokesUnderStreak.has(b) && marked.length === 0)) {
        return Math.min(plain[i]!, STRAIGHT_CONFIDENCE);
      }
      // A grey wash read as a mark beside another mark of its question, well under the page's firm marks: what a
      // rubber left when the answer changed, or a second light mark (grey-marks.ts). Alone on its question it
      // may be all a rubber left of the only answer: certain from a lower share of the firm marks (lone-greys.ts).
      // An empty-read grey wash alone on its question: a light mark or a rubber's, a person decides.
      const besideMark = bubbles.some((o) => o !== b && isMarked(o, model));
      const washCap = besideMark
        ? washMarkCap(b, model.emptyFill.level, fillsOfPage?.fillRise ?? null)
        : loneWashMarkCap(b, model.emptyFill.level, fillsOfPage?.fillRise ?? null, model.ink.threshold);
      // Alone or beside another mark, a mark with a rubber's texture is sure only as dark as the firm fills (rubbed-marks.ts).
      const rubbedCap = rubbedMarkCap(b, model.emptyFill.level, fillsOfPage?.fillRise ?? null);
      // With no firm fills to measure it against (a page of light and half-erased marks), a wash marked by its fill alone
      // (less ink than the page's marks) with a rubber's streaks run out of it sideways is as likely what a rubber left
      // (held-out halfErasedTexture-418 q16: a half-erased B alone on a multiple-choice question, read as a mark at 0.73).
      const smearedWash =
        fillsOfPage === null && isWash(b) && b.ink < model.ink.threshold && rubberSmear(b) ? LONE_GREY_CONFIDENCE : 1;
      let c = isMarked(b, model)
        ? Math.min(plain[i]!, greyMarkCap(b, model, fillsOfPage), washCap, rubbedCap, smearedWash)
        : plain[i]!;
      if (!isMarked(b, model)) {
        const rise = riseOf(b);
        c = Math.min(c, loneGreyCap(rise, isWash(b), !besideMark, emptyDoubtRise(model)));
        // Where the printed letters read as ink, a tick across the bubble is not told by its shape (the letter
        // lies beside its arm): one whose line band missed its stroke is read empty only by a person.
        if (b.crossed && b.bandOff && model.emptyInk.level >= LETTER_INK) c = Math.min(c, STRAIGHT_CONFIDENCE);
        // Ink left beside a line read through the bubble is a stroke of its own too (a tick's short arm
        // where a stray line runs into its vertex and the long arm out of the bubble were read as the line).
        const strokesBeside = b.crossed && b.ink >= STREAK_CHECK_INK;
        c = Math.min(c, outlierCap(b.fill - judgedBy[i]!.emptyFill.level, lightCaps.has(b) || strokesBeside));
      }
      // A grey marked by a few pixels past the ink level, beside a fill of its question (what a rubber
      // left when the answer changed, or a second light mark): only as sure as its darkness; on a page
      // the student rubbed out on, never sure under `RUBBED_ERASURE_OF_FIRM` of that fill, where a rubber's
      // leftovers lie (a half-erased mark whose patches cover the whole bubble looks like light pencil).
      // There, dense strokes over most of the bubble (a scribble's texture) may be a rubber's patches and streaks too.
      // On any page, so is a grey with a rubber's patches in its core (`patchyGrey`) or its streaks run out of it
      // sideways (`rubberSmear`, rubbed-marks.ts).
      const greyMark = greyInk(b, strokeContext, SOLID_INK);
      const rubbedBeside = rubbedOut && rubbedCover(b) && !b.line && !b.crossed && !b.streak;
      // On a page the student rubbed out on, the page's firm fills stand for the fill beside a mark beside a
      // stroke mark (a tick, a cross) and no fill, and beside a mark with a rubber's patches in its core alone
      // on its question (all a rubber left of an answer taken back, with nothing marked instead).
      // A grey mark with a rubber's streaks run out of it sideways may be what a rubber left, even alone on its question.
      const smeared = greyMark && rubberSmear(b);
      const firmOf = () =>
        fillBeside(b) ?? ((rubbedBeside && (besideMark || patchyCore(b))) || smeared ? (fillsOfPage?.fillRise ?? null) : null);
      const firmBeside = b.ink >= model.ink.threshold && (greyMark || rubbedBeside) ? firmOf() : null;
      if (firmBeside !== null) {
        const rise = riseOf(b);
        const mayBeRubbers = rubbedOut || (greyMark && (patchyGrey(b) || smeared));
        if (mayBeRubbers && rise < RUBBED_ERASURE_OF_FIRM * firmBeside) c = Math.min(c, DOUBT_FLOOR);
        else if (greyMark) c = Math.min(c, riseConfidence(rise));
      }
      // Grey beside a firm mark: a second light mark or an erasure. The page's other light marks do
      // not make it surer than its rise alone would be on a page of firm marks.
      if (grey.get(b) === 'second') return Math.min(c, riseConfidence(riseOf(b)));
      if (!isMarked(b, model) && lightCaps.has(b)) return Math.min(c, lightCaps.get(b)!);
      // On a page the student rubbed out on, a mark over most of its bubble read beside a "stray line"
      // may be a rubber's streak taken for one, and what is left its patches.
      if (b.crossed)
        return Math.min(c, rubbedOut && isMarked(b, model) && rubbedCover(b) ? CROSSED_MARK_CONFIDENCE : CROSSED_CONFIDENCE);
      return b.line && b.ink < SOLID_INK ? Math.min(c, LINE_CONFIDENCE) : c;
    };
    const confidences = bubbles.map((b, i) => Math.min(confidenceOf(b, i), seenBeside(b)));
    let confidence = round3(Math.min(...confidences));
    if (bubbles.some((b, i) => confidences[i]! < LOW_CONFIDENCE && (erased.has(b) || confidences[i]! < plain[i]!))) {
      otherDoubts.push(q.questionNo);
    }
    // A 1-bit page with no split: black the grey reading passes over is not surely paper.
    if (oneBitDoubt(bubbles, marked)) {
      confidence = Math.min(confidence, ONE_BIT_DOUBT);
      if (!otherDoubts.includes(q.questionNo)) otherDoubts.push(q.questionNo);
    }
    const fills = bubbles.map((b) => ({ label: b.label, fill: round3(b.fill) }));
    readings.push({ questionNo: q.questionNo, fills, marked, confidence });
    problems.push(...questionProblems(q, bubbles, { fills, marked, confidence }, model));
  }
  return {
    readings,
    problems,
    model,
    streaks: merged.map(([x0, x1]) => Math.round((x0 + x1) / 2)),
    measures: measured.map(({ q, bubbles }) => ({ questionNo: q.questionNo, bubbles })),
    otherDoubts,
  };
}

/** Where a bubble lies on the image: template mm to pixels, back, and pixels per mm there. */
type Placement = { t: AffineTransform; inverse: AffineTransform; pxPerMm: number };

/**
 * Whether the band a line across a bubble was left out with missed it, and the ink inside is one
 * straight stroke: the band took nothing of the inside (laid off the line by the line's end:
 * held-out strayVariety-108 q13, a stray line ending inside an option read as a mark at 0.8) and one
 * narrow band along the inside ink's own axis leaves nothing beside it (a cross's two bars, a tick's
 * two arms give no such band); or one wide stroke: the band took less than `BAND_INK_SHARE` of its
 * pixels' worth of ink, and a band along the inside ink's own axis (line-refit.ts), at least
 * `WIDE_STROKE_HALF_MM` wide, is filled with it and leaves nothing beside it. A wide stroke that ends
 * just past the bubble puts its ragged end on the paper ring off its axis: read beside the ring's band,
 * the line itself would be taken for a mark, and read along its own axis, its end for a tick's vertex
 * (tick-arm.ts; a tick's long arm across the bubble looks the same): the bubble stays under its line,
 * for a person.
 */
function bandMissedOneStroke(
  img: GreyImage,
  b: Measured,
  beside: BubbleMeasure,
  option: Bubble,
  black: number,
  p: Placement,
): boolean {
  if (beside.ink < STREAK_CHECK_INK) return false;
  // A band that takes nothing of the inside (laid off the line by its end) explains none of its ink.
  const missedWhole = beside.hidden <= 0;
  if (!missedWhole && b.ink - beside.ink * (1 - beside.hidden) >= BAND_INK_SHARE * beside.hidden) return false;
  const axis = insideInkAxis(img, b, option, black, p);
  if (axis === null || (!missedWhole && axis.half - LINE_MARGIN_PX < WIDE_STROKE_HALF_MM * p.pxPerMm)) return false;
  const along = measureBubble(img, p.t, p.inverse, option, black, axis);
  // One stroke fills its band: the ink it takes is most of the band's pixels (a checkmark's two thin
  // arms inside a band wide enough for both leave most of it paper).
  if (along.ink >= STREAK_CHECK_INK) return false;
  // Missed whole: one narrow stroke inside that leaves nothing beside it is the line itself.
  return missedWhole || b.ink >= STROKE_FILLS_BAND * along.hidden;
}

/** A band along the principal axis of the ink inside a bubble, no wider than a line (line-refit.ts), or null. */
function insideInkAxis(img: GreyImage, b: Measured, option: Bubble, black: number, p: Placement): Band | null {
  const ink = insideInk(img, p.t, p.inverse, option, INNER_INSET_MM, b.white, black);
  return inkAxisBand(ink, LINE_MARGIN_PX, LINE_MAX_HALF_MM * p.pxPerMm);
}

/** Whether a bubble's ink is one straight stroke: nothing is left beside a band along its axis (`insideInkAxis`). */
function oneStrokeInside(img: GreyImage, b: Measured, option: Bubble, black: number, p: Placement): boolean {
  const axis = insideInkAxis(img, b, option, black, p);
  return axis !== null && measureBubble(img, p.t, p.inverse, option, black, axis).ink < STREAK_CHECK_INK;
}

/** A bubble read beside a line across it (`band`): its darkness is what `beside` measured there. */
function readBesideLine(b: Measured, beside: BubbleMeasure, band: Band): void {
  Object.assign(b, { fill: beside.fill, ink: beside.ink, specks: beside.specks, edgeInk: 0, crossed: true, besideBand: band });
}

/**
 * Whether a bubble's ink is one stroke that runs on straight out of it, `DOT_MAX_RUN_OUT_MM` or more
 * past its outline: inside, one band along the ink's own axis (no wider than a pencil line) holds it
 * and is at least `band.share` (`STROKE_FILLS_BAND`) ink over the ink's own length. A wide pencil stroke
 * drawn from inside a bubble out past it (a stray line, or a slash) is short and wide inside, too round
 * for `straightStroke`; a tick's two arms leave most of such a band paper, a dot never runs out.
 * `band.skip`: the band a bubble was read beside (a line's or a streak's), its pixels and the strokes
 * crossing the ring on it left out.
 */
function strokeRunningOut(
  img: GreyImage,
  b: Measured,
  option: Bubble,
  black: number,
  p: Placement,
  band: AxisBandCheck = {},
): boolean {
  if (
    runOutOfBubble(img, p.t, option, levelBelow(LINE_LEVEL, b.white, black), DOT_MAX_RUN_OUT_MM, band.skip) < DOT_MAX_RUN_OUT_MM
  )
    return false;
  return fillsItsAxisBand(img, b, option, black, p, band);
}

/**
 * How a bubble's ink is checked against a pencil line's band along its own axis: beside `skip` (the band
 * it was read beside, if any), that band's part of the axis band left out of the area too with
 * `skipArea` (a streak crossing the stroke; see axisBandFill), filled to `share` (`STROKE_FILLS_BAND`).
 */
type AxisBandCheck = { skip?: Band; skipArea?: boolean; share?: number };

/**
 * Whether a bubble's inside ink fills a share of a pencil line's band along its own axis over its own
 * length (`AxisBandCheck`): one straight stroke.
 */
function fillsItsAxisBand(
  img: GreyImage,
  b: Measured,
  option: Bubble,
  black: number,
  p: Placement,
  { skip, skipArea = false, share = STROKE_FILLS_BAND }: AxisBandCheck = {},
): boolean {
  const ink = insideInk(img, p.t, p.inverse, option, INNER_INSET_MM, b.white, black).filter(
    (q) => !skip || !inBand(skip, q.x, q.y),
  );
  const fill = axisBandFill(ink, LINE_MAX_HALF_MM * p.pxPerMm, skipArea ? skip : undefined);
  return fill !== null && fill >= share;
}

/** The page's empty bubbles as the stroke rule sees them: those read whole, unmarked and under the ink floor, per letter. */
function strokePage(all: readonly { b: Measured }[], model: PageModel): StrokeContext {
  const whole = all.filter(({ b }) => !b.line && !b.crossed && !b.streak).map(({ b }) => b);
  const empty = whole.filter((b) => !isMarked(b, model) && b.ink < model.ink.floor);
  const letters = letterLevels(empty);
  return { emptyInk: model.emptyInk, emptyFill: model.emptyFill, letters, letterSpread: letterSpread(empty, letters) };
}

/**
 * The page's stroke marks (stroke-marks.ts) that its thresholds left unmarked or marked with doubt,
 * with their confidence; each is flagged `stroke` (so it reads marked). Also the marks by ink that
 * are one straight stroke short of a fill (`straight`), and the empty-read bubbles holding a dark
 * stroke that proves no mark or a light stroke mark run out of them (`unproven`): both capped at
 * `STRAIGHT_CONFIDENCE`. The empty bubbles of each letter are those under the page's ink floor and
 * unmarked, read whole.
 */
function strokeMarks(
  img: GreyImage,
  all: readonly { b: Measured; option: Bubble }[],
  model: PageModel,
  black: number,
  context: StrokeContext,
  at: (option: Bubble) => Placement,
): { strokes: Map<Measured, number>; straight: Set<Measured>; unproven: Set<Measured> } {
  const strokes = new Map<Measured, number>();
  const straight = new Set<Measured>();
  const unproven = new Set<Measured>();
  for (const { b, option } of all) {
    // A cross whose bars run out of the bubble looks like a line through it on the paper around it: on
    // both pairs of sides (a +, an X's four arms) or diagonally, never on one pair alone as a single
    // upright or level line through the bubble leaves (with the printed letter it can look like two bars).
    // Ink on one pair of sides spread too far for one line, with no stray line running into the
    // bubble, is an X's four arms poking out of a wide bubble (line-crossings.ts).
    const entry = () => strayEntry(img, at(option).t, option, levelBelow(LINE_LEVEL, b.white, black));
    const arms = () => crossArmsOnOnePair(b.lineSpreadMm, entry);
    const oneLine = b.vertical !== b.horizontal && !b.diagonal && !(b.line && !b.streak && b.ink < SOLID_INK && arms());
    const cross = b.line && !oneLine && !b.streak && b.ink < SOLID_INK;
    if (!cross && isMarked(b, model)) {
      // A mark by its ink that is one straight stroke, short of a fill: a stray pencil line that ends in
      // the bubble leaves just that (a tick's long arm alone too): never certain. A doubtful mark too, over
      // the review line by its darkness (held-out strayVariety-556 q14: a thin stray line ending inside A,
      // 3.8 mm of it outside, read as a second answer at 0.7). Run out of the bubble, it is asked at a light
      // stroke's share (`LIGHT_STROKE_FILLS_BAND`): a wide grainy stray line ending inside leaves no more.
      const p = at(option);
      const inkBelow = levelBelow(INK_LEVEL, b.white, black);
      // Read beside a line or streak, what is left beside it is looked at: a second stray stroke, too short to
      // be found as one, may run out of the bubble from there (a wide stroke ending on B, under a line down
      // its column, read as a second answer of a multiple-choice question).
      const partial = b.ink < SOLID_INK && !b.line && b.ink >= model.ink.threshold;
      // Beside a streak, ink that is one straight stroke, the streak's part of its band left out, is what a
      // stray line across the bubble leaves, run out of it or not (held-out strayVariety-476 q14: a wide
      // stray line across A, out of it where a stray line down the column, read as a streak, crossed the
      // outline, so no run out of the bubble was seen; read as a second answer at 0.63).
      const straightInside = () =>
        b.crossed || b.streak
          ? b.besideBand !== undefined &&
            (strokeRunningOut(img, b, option, black, p, { skip: b.besideBand }) ||
              (!b.crossed && fillsItsAxisBand(img, b, option, black, p, { skip: b.besideBand, skipArea: true })))
          : straightStroke(strokeShape(img, p.t, p.inverse, option, INNER_INSET_MM, inkBelow)) ||
            strokeRunningOut(img, b, option, black, p, { share: LIGHT_STROKE_FILLS_BAND });
      if (partial && straightInside()) {
        // Unless it is a tick whose vertex and short arm lie at and outside the outline (tick-arm.ts).
        if (!tickWithArmOutside(img, p.t, p.inverse, option, INNER_INSET_MM, inkBelow)) straight.add(b);
      }
      if (bubbleConfidence(b, model) >= 1) continue;
    }
    // Read beside a line across it: that line may be a tick's long arm, its vertex and short arm at the
    // outline on the other side (tick-arm.ts). Then it is read whole, as the tick it is.
    const whole = b.crossed && !b.line && !b.streak ? tickReadWhole(img, b, option, black, context, at(option)) : null;
    if (whole) {
      Object.assign(b, whole.measure, { crossed: false });
      strokes.set(b, whole.sure);
      b.stroke = true;
      continue;
    }
    const sure = strokeEvidence(cross ? { ...b, line: false } : b, context);
    // Read empty, a dark stroke the page's spread keeps from proving a mark (a slash, a tick's long arm
    // whose vertex lies on the outline, a short stray stroke no line check explained): a person
    // decides. Ink along the inside's edge is the printed outline a fit a little off shows there.
    if (sure === null) {
      if (!cross && !isMarked(b, model) && b.edgeInk < OUTLINE_EDGE_SHARE && darkStrokeInk(b, context)) unproven.add(b);
      continue;
    }
    const p = at(option);
    const inkBelow = levelBelow(INK_LEVEL, b.white, black);
    const shape = strokeShape(img, p.t, p.inverse, option, INNER_INSET_MM, inkBelow);
    // A + over a wide bubble, its upright bar cut short, shows ink on all four sides (line-crossings.ts).
    const bars = () => crossingBars(shape) || crossOnAllSides(shape, b.vertical, b.horizontal, entry);
    let tickSeen: boolean | undefined;
    const tick = () => (tickSeen ??= tickWithArmOutside(img, p.t, p.inverse, option, INNER_INSET_MM, inkBelow));
    if (cross ? !bars() : straightStroke(shape) && !tick()) continue;
    // One light straight stroke run out of the bubble, too wide inside for `straightStroke`: a person decides.
    if (!cross && strokeRunningOut(img, b, option, black, p, { share: LIGHT_STROKE_FILLS_BAND }) && !tick()) {
      unproven.add(b);
      continue;
    }
    strokes.set(b, sure);
    b.stroke = true;
    if (cross) b.line = false;
  }
  return { strokes, straight, unproven };
}

/**
 * A bubble read beside a line across it, read whole again: when its whole ink is a stroke mark
 * (stroke-marks.ts), a thin stroke inside, and a tick's vertex and short arm show at one end of it
 * just around the bubble (tick-arm.ts). Its whole measure and stroke confidence, or null.
 */
function tickReadWhole(
  img: GreyImage,
  b: Measured,
  option: Bubble,
  black: number,
  context: StrokeContext,
  p: { t: AffineTransform; inverse: AffineTransform },
): { measure: BubbleMeasure; sure: number } | null {
  const measure = measureBubble(img, p.t, p.inverse, option, black);
  if (measure.ink >= SOLID_INK) return null;
  const sure = strokeEvidence({ ...b, ...measure, crossed: false }, context);
  if (sure === null) return null;
  const inkBelow = levelBelow(INK_LEVEL, measure.white, black);
  return tickWithArmOutside(img, p.t, p.inverse, option, INNER_INSET_MM, inkBelow) ? { measure, sure } : null;
}

/** Whether a question takes one answer only (single choice, true/false). */
function oneAnswer(q: ObjectiveQuestionLayout): boolean {
  return q.type === 'single' || q.type === 'judge';
}

/** The problems of one question's reading: more than one mark where one is allowed, a low confidence. */
function questionProblems(
  q: ObjectiveQuestionLayout,
  bubbles: readonly Measured[],
  read: Pick<ObjectiveReading, 'fills' | 'marked' | 'confidence'>,
  model: PageModel,
): RecognitionProblem[] {
  const problems: RecognitionProblem[] = [];
  if (oneAnswer(q) && read.marked.length > 1) {
    problems.push({ kind: 'multipleMarks', questionNo: q.questionNo, detail: `marked ${read.marked.join('')}` });
  }
  if (read.confidence < LOW_CONFIDENCE) {
    const lines = bubbles.filter((b) => b.line && b.ink < SOLID_INK).map((b) => b.label);
    problems.push({
      kind: 'lowConfidence',
      questionNo: q.questionNo,
      detail:
        `ink ${bubbles.map((b) => `${b.label}=${round3(b.ink)}`).join(' ')}, fill ${read.fills.map((f) => `${f.label}=${f.fill}`).join(' ')}, ` +
        `thresholds ink ${round3(model.ink.threshold)} fill ${round3(model.fill.threshold)}${lines.length > 0 ? `, a line runs through ${lines.join('')}` : ''}`,
    });
  }
  return problems;
}

/**
 * One question of a split 1-bit page: marked the bubbles above the split, each as sure as its
 * distance from it says (a mark no surer than dust could make it, told by its black area and its
 * specks on the 1-bit image: `place` gives its scale and counts them; an `unconfirmed` faint mark
 * beside a firm one no surer than a rubbed-out mark), and no surer than a line or a pencil stroke
 * through it lets it be.
 */
function readOneBitQuestion(
  bubbles: readonly Measured[],
  split: OneBitSplit,
  unconfirmed: ReadonlySet<Measured>,
  place: (b: Measured) => { pxPerMm2: number; specks: () => number },
): Pick<ObjectiveReading, 'fills' | 'marked' | 'confidence'> {
  const confidences = bubbles.map((b) => {
    const root = rootCount(b.fill, b.insidePx);
    let sure = !unconfirmed.has(b);
    if (sure && root >= split.threshold) {
      const { pxPerMm2, specks } = place(b);
      const blackMm2 = (b.fill * b.insidePx) / pxPerMm2;
      const count = blackMm2 >= SURE_BLOB_MM2 ? 0 : specks();
      sure = oneBitMarkIsSure(blackMm2, count) || speckleOnCleanPaper(count, split);
    }
    const c = oneBitConfidence(root, split, sure);
    if (b.crossed) return Math.min(c, CROSSED_CONFIDENCE);
    return b.line && b.ink < SOLID_INK ? Math.min(c, LINE_CONFIDENCE) : c;
  });
  return {
    fills: bubbles.map((b) => ({ label: b.label, fill: round3(b.fill) })),
    marked: bubbles.filter((b) => rootCount(b.fill, b.insidePx) >= split.threshold).map((b) => b.label),
    confidence: round3(Math.min(...confidences)),
  };
}

/**
 * How much darker a page's printed outlines (bubble ellipses, region frames) are than the paper just
 * outside them, under a transform, in grey levels: clearly positive when the transform is right, about
 * zero when it is not (a page taken the wrong way up). Samples a few dozen outlines.
 */
export function outlineContrast(
  img: GreyImage,
  t: AffineTransform,
  questions: readonly ObjectiveQuestionLayout[],
  regions: readonly { xMm: number; yMm: number; wMm: number; hMm: number }[],
): number {
  const at = (x: number, y: number) => {
    const p = applyAffine(t, x, y);
    const px = Math.round(p.x);
    const py = Math.round(p.y);
    return px < 0 || py < 0 || px >= img.width || py >= img.height ? 255 : img.data[py * img.width + px]!;
  };
  let sum = 0;
  let count = 0;
  // The line is looked for over half a millimetre across it: the fit may be off by a little.
  const compare = (line: (offset: number) => [number, number], outside: [number, number]) => {
    const darkest = Math.min(...[-0.45, -0.3, -0.15, 0, 0.15].map((o) => at(...line(o))));
    sum += at(...outside) - darkest;
    count += 1;
  };
  const bubbles = questions.flatMap((q) => q.options);
  const every = Math.max(1, Math.floor(bubbles.length / 24));
  for (let i = 0; i < bubbles.length; i += every) {
    const b = bubbles[i]!;
    const [cx, cy, rx, ry] = [b.xMm + b.wMm / 2, b.yMm + b.hMm / 2, b.wMm / 2 - 0.15, b.hMm / 2 - 0.15];
    for (let k = 0; k < 8; k += 1) {
      const [cos, sin] = [Math.cos((k * Math.PI) / 4), Math.sin((k * Math.PI) / 4)];
      compare((o) => [cx + (rx + o) * cos, cy + (ry + o) * sin], [cx + (rx + 0.9) * cos, cy + (ry + 0.9) * sin]);
    }
  }
  for (const r of regions) {
    for (let k = 1; k < 8; k += 1) {
      const x = r.xMm + (k * r.wMm) / 8;
      compare((o) => [x, r.yMm + 0.15 - o], [x, r.yMm - 0.9]);
      compare((o) => [x, r.yMm + r.hMm - 0.15 + o], [x, r.yMm + r.hMm + 0.9]);
    }
  }
  return count === 0 ? 0 : sum / count;
}

/**
 * A ring is looked for around bubbles with less ink inside than this (a fill's own ink spilling over
 * its outline all round is no ring; a ring is drawn around a bubble left clean).
 */
const RING_INSIDE_INK = FALLBACK_INK;

/** Whether a bubble is read by a ring drawn around it (its cover at least `RING_PARTIAL`). */
function ringed(b: Pick<Measured, 'ring'>): boolean {
  return b.ring >= RING_PARTIAL;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
