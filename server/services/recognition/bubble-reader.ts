/**
 * Reads the bubbles of a page: each bubble's fill (mean darkness inside an inset ellipse, against the
 * paper white just around that bubble and the printer black of the fiducials, so the grey letters
 * printed inside an empty bubble and uneven scanner lighting count for little), then one threshold for
 * the whole page by the largest-gap rule that open-source OMR readers use (OMRChecker's global
 * threshold), searched only where a threshold is plausible, with a fixed ratio when the page shows no
 * clear gap. Like OMRChecker, a question may lower its own threshold when its bubbles show a clear jump
 * of their own above its empty ones (a light but deliberate mark on a page of dark ones). Each
 * question's confidence is its least certain bubble's.
 */
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import { LOW_CONFIDENCE, type ObjectiveReading, type RecognitionProblem } from '../../../src/shared/contract/recognition';
import type { Bubble, ObjectiveQuestionLayout } from '../../../src/shared/contract/answer-sheet';
import { applyAffine, invertAffine } from './affine-fit';
import type { GreyImage } from './grey-image';

/** The inside that is measured: clear of the printed outline (0.3 mm) and of a small fit error. */
const INNER_INSET_MM = 0.55;
/** The paper around a bubble: outside its outline by this much, inside its rectangle grown by `PAPER_MARGIN_MM`. */
const OUTLINE_CLEAR_MM = 0.4;
const PAPER_MARGIN_MM = 1;
/** The paper level is this percentile of the surrounding pixels: robust to a mark spilling over the outline. */
const PAPER_PERCENTILE = 0.8;

/**
 * Thresholds are only looked for in this range of fills: below it even an empty bubble's letters and an
 * erasure can reach, above it a mark is unmistakable.
 */
export const THRESHOLD_RANGE = [0.2, 0.6] as const;
/** The widest empty band inside the range must be at least this wide to trust the gap. */
export const MIN_GAP = 0.08;
/** The fixed-ratio fallback: marked when darker than this share of the way from paper to ink. */
export const FALLBACK_THRESHOLD = 0.4;
/** A bubble this far from the threshold is certain; nearer, its confidence falls linearly. */
const CONFIDENCE_SPAN = 0.15;
/**
 * An unmarked bubble darker than the page's typical empty bubble by more than this is a smudge, an
 * erasure or a very light mark: its confidence falls to `DOUBT_FLOOR` at `DOUBT_SPAN` beyond.
 */
const DOUBT_START = 0.1;
const DOUBT_SPAN = 0.1;
const DOUBT_FLOOR = 0.3;

/**
 * A question's own jump: from bubbles at the page's empty level to a darker one by at least this much
 * marks the darker one, even below the page threshold.
 */
export const LOCAL_MIN_JUMP = 0.2;

export type BubbleFill = { questionNo: number; label: string; fill: number };

/** The fill of one bubble, 0 (paper) to 1 (as dark as the printed fiducials). */
export function bubbleFill(img: GreyImage, t: AffineTransform, inverse: AffineTransform, bubble: Bubble, black: number): number {
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

  const paper = new Uint32Array(256);
  let paperCount = 0;
  let inkSum = 0;
  let inkCount = 0;
  for (let y = top; y <= bottom; y += 1) {
    const row = y * img.width;
    // Template millimetres of the row's first pixel, relative to the bubble centre; step per pixel.
    let u = inverse.a * left + inverse.c * y + inverse.e - cx;
    let v = inverse.b * left + inverse.d * y + inverse.f - cy;
    for (let x = left; x <= right; x += 1, u += inverse.a, v += inverse.b) {
      const inner = (u / irx) ** 2 + (v / iry) ** 2;
      if (inner <= 1) {
        inkSum += img.data[row + x] as number;
        inkCount += 1;
      } else if (Math.abs(u) <= mx && Math.abs(v) <= my && (u / orx) ** 2 + (v / ory) ** 2 > 1) {
        paper[img.data[row + x]!]! += 1;
        paperCount += 1;
      }
    }
  }
  if (inkCount === 0 || paperCount === 0) return 0;
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
  return Math.min(1, Math.max(0, (white - inkSum / inkCount) / range));
}

export type PageThreshold = { threshold: number; gap: number; fallback: boolean };

/**
 * The page's threshold: the middle of the widest band without any fill inside THRESHOLD_RANGE (the
 * largest-gap rule, clipped to where a threshold makes sense), or FALLBACK_THRESHOLD when that band
 * is narrower than MIN_GAP (fills spread all over: no natural split).
 */
export function pageThreshold(fills: readonly number[]): PageThreshold {
  const [low, high] = THRESHOLD_RANGE;
  const sorted = [0, ...fills, 1].sort((p, q) => p - q);
  let best: { from: number; to: number } = { from: low, to: low };
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const from = Math.max(sorted[i] as number, low);
    const to = Math.min(sorted[i + 1] as number, high);
    if (to - from > best.to - best.from) best = { from, to };
  }
  const gap = best.to - best.from;
  if (gap < MIN_GAP) return { threshold: FALLBACK_THRESHOLD, gap, fallback: true };
  return { threshold: (best.from + best.to) / 2, gap, fallback: false };
}

/** How sure a bubble's reading is, given the threshold and the fill of the page's typical empty bubble. */
export function bubbleConfidence(fill: number, threshold: number, emptyLevel: number): number {
  const byDistance = Math.min(1, Math.abs(fill - threshold) / CONFIDENCE_SPAN);
  if (fill >= threshold) return byDistance;
  const excess = fill - emptyLevel - DOUBT_START;
  const byExcess = excess <= 0 ? 1 : Math.max(DOUBT_FLOOR, 1 - ((1 - DOUBT_FLOOR) * excess) / DOUBT_SPAN);
  return Math.min(byDistance, byExcess);
}

/**
 * A question's threshold: the page's, or lower where the question's own fills jump by LOCAL_MIN_JUMP
 * from empty-looking bubbles (at most DOUBT_START above the page's empty level) to a darker one.
 */
export function questionThreshold(fills: readonly number[], page: number, emptyLevel: number): number {
  const sorted = [...fills].sort((p, q) => p - q);
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const low = sorted[i] as number;
    const high = sorted[i + 1] as number;
    if (low > emptyLevel + DOUBT_START || low >= page) break;
    if (high - low >= LOCAL_MIN_JUMP) return Math.min(page, Math.max(THRESHOLD_RANGE[0], (low + high) / 2));
  }
  return page;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((p, q) => p - q);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export type ObjectiveResult = {
  readings: ObjectiveReading[];
  problems: RecognitionProblem[];
  threshold: PageThreshold;
};

/** Reads every objective question of a page: fills, marks, confidences and the problems they raise. */
export function readObjective(
  img: GreyImage,
  t: AffineTransform,
  questions: readonly ObjectiveQuestionLayout[],
  black: number,
): ObjectiveResult {
  const inverse = invertAffine(t);
  const measured = questions.map((q) => ({
    q,
    fills: q.options.map((o) => ({ label: o.label, fill: round3(bubbleFill(img, t, inverse, o, black)) })),
  }));
  const all = measured.flatMap((m) => m.fills.map((f) => f.fill));
  const threshold = pageThreshold(all);
  const emptyLevel = median(all.filter((f) => f < threshold.threshold));
  const readings: ObjectiveReading[] = [];
  const problems: RecognitionProblem[] = [];
  for (const { q, fills } of measured) {
    const own = questionThreshold(
      fills.map((f) => f.fill),
      threshold.threshold,
      emptyLevel,
    );
    const marked = fills.filter((f) => f.fill >= own).map((f) => f.label);
    const confidence = round3(Math.min(...fills.map((f) => bubbleConfidence(f.fill, own, emptyLevel))));
    readings.push({ questionNo: q.questionNo, fills, marked, confidence });
    if ((q.type === 'single' || q.type === 'judge') && marked.length > 1) {
      problems.push({ kind: 'multipleMarks', questionNo: q.questionNo, detail: `marked ${marked.join('')}` });
    }
    if (confidence < LOW_CONFIDENCE) {
      problems.push({
        kind: 'lowConfidence',
        questionNo: q.questionNo,
        detail: `fills ${fills.map((f) => `${f.label}=${f.fill}`).join(' ')}, threshold ${round3(own)}`,
      });
    }
  }
  return { readings, problems, threshold };
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

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
