/**
 * Calibration across the pages of one student's answer sheet. Each page is read alone (bubble-reader.ts
 * decides its marks against its own populations of empty and marked bubbles); a page with few objective
 * questions has little to decide from, so a careful student's consistent light marks or ticks there may
 * be held for review although the sheet's other pages show the same style clearly. Here:
 * - `pageCalibration` keeps, with a page's reading, what pooling needs: its populations (levels,
 *   spreads, where it split empty from marked), its marks' style, and the bubble measures of the
 *   questions it held only for a doubt of its own calibration (never one with a line, a streak, an
 *   erasure or a double mark through it: calibration cannot change those);
 * - `pooledModel` pools the pages' calibrations into one page model (weighted by their bubbles), or
 *   none when the pages disagree about where marks begin;
 * - `calibrateReading` decides a page's held questions again under the pooled model, from the stored
 *   measures (no image): a question is released only when the pooled model reads the same marks and is
 *   confident, only on a page whose own empty levels agree with the pool, and only on a page with fewer
 *   bubbles than the other pages together (the thin page learns from the rich ones, never the reverse).
 *   Nothing else changes.
 * Pure: no database, no image. The server pools the pages of a student and homework at settlement
 * (marking/sheet-calibration.ts); the recognition bench does the same over its generated sheets.
 */
import type { ObjectiveQuestionLayout } from '../../../src/shared/contract/answer-sheet';
import { LOW_CONFIDENCE, type PageCalibration, type PageReading } from '../../../src/shared/contract/recognition';
import {
  FALLBACK_FILL,
  FALLBACK_INK,
  MIN_FILL_RISE,
  MIN_GAP,
  MIN_MARK_RISE,
  bubbleConfidence,
  greyBesideFirmMarks,
  isMarked,
  type ObjectiveResult,
  type PageModel,
  type PageThreshold,
  type Population,
} from './bubble-reader';

/** The other pages of a sheet must bring this many bubbles read whole, and marks among them, to be a prior worth having. */
export const MIN_PRIOR_BUBBLES = 40;
export const MIN_PRIOR_MARKS = 8;
/**
 * A page is calibrated with the others only when its own empty levels lie this close to the pool's
 * (or within three of the pool's spreads): the same paper, scanner and pencil. Ink share, fill, specks.
 */
const LEVEL_TOLERANCE = { ink: 0.006, fill: 0.03, specks: 2 };
/**
 * At most this many held questions keep their measures (a page with more doubts has a doubt of its
 * own, not one of calibration: its further questions simply stay held). Keeps the reading small.
 */
export const MAX_HELD = 30;
/** Spread floors as the page model has them (ink share and fill; specks). */
const SPREAD_FLOOR = 0.003;
const SPECKS_SPREAD_FLOOR = 1;

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** What a page's objective reading keeps for calibrating the other pages of its sheet with. */
export function pageCalibration(result: ObjectiveResult, layouts: readonly ObjectiveQuestionLayout[]): PageCalibration {
  const { model } = result;
  const whole = result.measures.flatMap((m) => m.bubbles).filter((b) => !b.line && !b.crossed);
  const split = (values: number[], threshold: PageThreshold) => {
    const below = values.filter((v) => v < threshold.threshold);
    const above = values.filter((v) => v >= threshold.threshold);
    return {
      threshold: round(threshold.threshold, 4),
      emptyMax: below.length > 0 ? round(Math.max(...below), 4) : null,
      markMin: above.length > 0 ? round(Math.min(...above), 4) : null,
    };
  };
  const population = (p: Population) => ({ level: round(p.level, 4), spread: round(p.spread, 4) });
  const marks = whole.filter((b) => isMarked(b, model));
  const byInk = (b: { ink: number }) => b.ink >= model.ink.threshold;
  const byFill = (b: { fill: number }) => b.fill >= model.fill.threshold;
  const typeOf = new Map(layouts.map((q) => [q.questionNo, q.type]));
  const held: PageCalibration['held'] = [];
  for (const { questionNo, bubbles } of result.measures) {
    if (held.length >= MAX_HELD) break;
    const reading = result.readings.find((r) => r.questionNo === questionNo);
    if (!reading || reading.confidence >= LOW_CONFIDENCE) continue;
    // Doubts a calibration cannot settle: a line or streak through a bubble, any doubt the reader names
    // as not its calibration's (light strokes, an erasure, a grey read as a mark), grey beside a firm mark (an erasure or a second mark), two marks where one is allowed.
    if (bubbles.some((b) => b.line || b.crossed || b.streak) || result.otherDoubts.includes(questionNo)) continue;
    if (greyBesideFirmMarks(bubbles, model).size > 0) continue;
    const type = typeOf.get(questionNo);
    if ((type === 'single' || type === 'judge') && reading.marked.length > 1) continue;
    held.push({
      questionNo,
      marked: reading.marked,
      bubbles: bubbles.map((b) => [round(b.fill, 4), round(b.ink, 4), b.specks, round(b.edgeInk, 3)]),
    });
  }
  return {
    bubbles: whole.length,
    marks: marks.length,
    emptyInk: population(model.emptyInk),
    emptyFill: population(model.emptyFill),
    emptySpecks: population(model.emptySpecks),
    ink: split(
      whole.map((b) => b.ink),
      model.ink,
    ),
    fill: split(
      whole.map((b) => b.fill),
      model.fill,
    ),
    markFill: round(model.markFill, 4),
    style: {
      fills: marks.filter((b) => byInk(b) && byFill(b)).length,
      ticks: marks.filter((b) => byInk(b) && !byFill(b)).length,
      light: marks.filter((b) => !byInk(b) && byFill(b)).length,
    },
    held,
  };
}

function pooledPopulation(pages: readonly PageCalibration[], of: (p: PageCalibration) => Population, floor: number): Population {
  const weight = pages.reduce((sum, p) => sum + p.bubbles, 0);
  const level = pages.reduce((sum, p) => sum + p.bubbles * of(p).level, 0) / weight;
  const spread = pages.reduce((sum, p) => sum + p.bubbles * of(p).spread, 0) / weight;
  return { level, spread: Math.max(floor, spread) };
}

/**
 * The pooled split on one measure: above every page's highest empty value and the pooled floor, below
 * every page's lowest mark, in the middle of that gap when it is at least MIN_GAP wide. With no marks
 * on the measure anywhere, the fallback (as a page alone has it), if every page's empty values stay
 * under it. Null when the pages disagree.
 */
function pooledThreshold(
  splits: readonly PageCalibration['ink'][],
  empty: Population,
  rise: number,
  fallback: number,
): PageThreshold | null {
  const floor = empty.level + Math.max(rise, 4 * empty.spread);
  const low = Math.max(floor, ...splits.flatMap((s) => (s.emptyMax === null ? [] : [s.emptyMax])));
  const marks = splits.flatMap((s) => (s.markMin === null ? [] : [s.markMin]));
  if (marks.length === 0) {
    const threshold = Math.max(floor, fallback);
    return low < threshold ? { threshold, floor, gap: 0, fallback: true } : null;
  }
  const high = Math.min(...marks);
  if (high - low < MIN_GAP) return null;
  return { threshold: (low + high) / 2, floor, gap: high - low, fallback: false };
}

/** One page model from the calibrations of a sheet's pages, or null when they do not agree on where marks begin. */
export function pooledModel(pages: readonly PageCalibration[]): PageModel | null {
  const counted = pages.filter((p) => p.bubbles > 0);
  const marks = counted.reduce((sum, p) => sum + p.marks, 0);
  if (counted.length === 0 || marks === 0) return null;
  const emptyInk = pooledPopulation(counted, (p) => p.emptyInk, SPREAD_FLOOR);
  const emptyFill = pooledPopulation(counted, (p) => p.emptyFill, SPREAD_FLOOR);
  const emptySpecks = pooledPopulation(counted, (p) => p.emptySpecks, SPECKS_SPREAD_FLOOR);
  const ink = pooledThreshold(
    counted.map((p) => p.ink),
    emptyInk,
    MIN_MARK_RISE,
    FALLBACK_INK,
  );
  const fill = pooledThreshold(
    counted.map((p) => p.fill),
    emptyFill,
    MIN_FILL_RISE,
    FALLBACK_FILL,
  );
  if (!ink || !fill) return null;
  const markFill = counted.reduce((sum, p) => sum + p.marks * p.markFill, 0) / marks;
  return { ink, fill, emptyInk, emptyFill, markFill, emptySpecks };
}

/** Whether a page's own empty levels agree with the pool's: the same paper, scanner and pencil. */
function agrees(page: PageCalibration, model: PageModel): boolean {
  const near = (own: Population, pooled: Population, tolerance: number) =>
    Math.abs(own.level - pooled.level) <= Math.max(tolerance, 3 * pooled.spread);
  return (
    near(page.emptyInk, model.emptyInk, LEVEL_TOLERANCE.ink) &&
    near(page.emptyFill, model.emptyFill, LEVEL_TOLERANCE.fill) &&
    near(page.emptySpecks, model.emptySpecks, LEVEL_TOLERANCE.specks)
  );
}

export type Released = { questionNo: number; alone: number; pooled: number };

/**
 * Decides a page's held questions again with the calibrations of the sheet's other pages (`others`,
 * this page's own left out; pages of the same student and homework). Returns the reading with the
 * released questions' confidences raised and their lowConfidence problems gone (recorded under
 * `calibration.released`), and which they were; the same reading when nothing is released. Only
 * questions in `candidates` (all held ones when omitted) are considered.
 */
export function calibrateReading(
  reading: PageReading,
  others: readonly PageCalibration[],
  candidates?: ReadonlySet<number>,
): { reading: PageReading; released: Released[] } {
  const own = reading.calibration;
  const unchanged = { reading, released: [] };
  if (!own || own.held.length === 0) return unchanged;
  const prior = others.filter((p) => p.bubbles > 0);
  const priorBubbles = prior.reduce((sum, p) => sum + p.bubbles, 0);
  // A page is calibrated by pages that know more than it does: a page's own doubts, on as many bubbles
  // as the others have, are its own to keep.
  if (priorBubbles < Math.max(MIN_PRIOR_BUBBLES, own.bubbles)) return unchanged;
  if (prior.reduce((sum, p) => sum + p.marks, 0) < MIN_PRIOR_MARKS) return unchanged;
  const model = pooledModel([own, ...prior]);
  if (!model || !agrees(own, model)) return unchanged;
  const released: Released[] = [];
  for (const held of own.held) {
    if (candidates && !candidates.has(held.questionNo)) continue;
    const read = reading.objective.find((o) => o.questionNo === held.questionNo);
    if (!read || read.confidence >= LOW_CONFIDENCE) continue;
    if (held.bubbles.length !== read.fills.length) continue;
    const bubbles = held.bubbles.map(([fill, ink, specks, edgeInk], i) => ({
      label: read.fills[i]!.label,
      fill,
      ink,
      specks,
      edgeInk,
      line: false,
    }));
    const marked = bubbles.filter((b) => isMarked(b, model)).map((b) => b.label);
    // The pool reads other marks, or sees grey beside a firm mark: the page's own doubt stands.
    if (marked.join() !== held.marked.join() || marked.join() !== read.marked.join()) continue;
    if (greyBesideFirmMarks(bubbles, model).size > 0) continue;
    const pooled = round(Math.min(...bubbles.map((b) => bubbleConfidence(b, model))), 3);
    if (pooled < LOW_CONFIDENCE) continue;
    released.push({ questionNo: held.questionNo, alone: read.confidence, pooled });
  }
  if (released.length === 0) return unchanged;
  const done = new Map(released.map((r) => [r.questionNo, r]));
  return {
    reading: {
      ...reading,
      objective: reading.objective.map((o) =>
        done.has(o.questionNo) ? { ...o, confidence: done.get(o.questionNo)!.pooled } : o,
      ),
      problems: reading.problems.filter(
        (p) => !(p.kind === 'lowConfidence' && p.questionNo !== undefined && done.has(p.questionNo)),
      ),
      calibration: {
        ...own,
        held: own.held.filter((h) => !done.has(h.questionNo)),
        released: [...(own.released ?? []), ...released],
      },
    },
    released,
  };
}

/**
 * Calibrates every page of one student's sheet with the others (the bench's and the tests' shortcut;
 * the server does it page by page as they settle). Readings without a calibration pass unchanged.
 */
export function calibrateSheet(readings: readonly PageReading[]): PageReading[] {
  return readings.map(
    (reading, i) =>
      calibrateReading(
        reading,
        readings.flatMap((other, j) => (j === i || !other.calibration ? [] : [other.calibration])),
      ).reading,
  );
}
