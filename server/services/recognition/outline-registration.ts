/**
 * Places each objective question on its own printed bubble outlines. A phone photo's page is not flat:
 * a curled edge lifts part of the sheet off the desk, and one homography through the four corner
 * fiducials (two of them on the lifted part) cannot follow it, so a question can sit a millimetre or
 * more away from where the page-wide transform puts it. Every bubble has a printed outline: the shift
 * under which a question's outlines fall on dark ink with paper just outside them is where that
 * question really is. Used for photos only (a scanner's glass holds the page flat).
 */
import type { ObjectiveQuestionLayout } from '../../../src/shared/contract/answer-sheet';
import type { AffineTransform } from '../../../src/shared/contract/recognition';
import { applyAffine } from './affine-fit';
import type { LocalTransform } from './bubble-reader';
import { greyAt, type GreyImage } from './grey-image';

/** How far a question is looked for around its placement, mm: more than a curl or a fit misplaces it, well under the 6 mm between rows. */
export const MAX_SHIFT_MM = 1.5;
/** Search step, mm (about a pixel at 300 dpi). */
const SHIFT_STEP_MM = 0.1;
/** Points sampled around each outline. */
const OUTLINE_POINTS = 16;
/** The outline's middle lies this far inside the bubble's nominal edge, mm (half the printed stroke). */
const OUTLINE_INSET_MM = 0.15;
/** Paper is sampled this far outside the nominal edge, mm: past the stroke, short of the next print. */
const PAPER_OUTSET_MM = 0.8;
/**
 * A shift is taken only when it makes the outlines stand out from the paper beside them by this many
 * grey levels more (per sample) than where the page-wide transform puts them: noise alone never moves
 * a question.
 */
const MIN_GAIN_GREY = 4;

export type Shift = { dxMm: number; dyMm: number };

/**
 * How much a question's outlines stand out from the paper just outside them, at a shift of the
 * question (template mm): mean grey outside minus mean grey on the outline. A filled bubble counts
 * too: its outline is dark whatever is inside.
 */
export function outlineScore(img: GreyImage, t: AffineTransform, question: ObjectiveQuestionLayout, shift: Shift): number {
  let sum = 0;
  let count = 0;
  for (const b of question.options) {
    const cx = b.xMm + b.wMm / 2 + shift.dxMm;
    const cy = b.yMm + b.hMm / 2 + shift.dyMm;
    for (let k = 0; k < OUTLINE_POINTS; k += 1) {
      const angle = (2 * Math.PI * k) / OUTLINE_POINTS;
      const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
      const on = applyAffine(t, cx + (b.wMm / 2 - OUTLINE_INSET_MM) * cos, cy + (b.hMm / 2 - OUTLINE_INSET_MM) * sin);
      const out = applyAffine(t, cx + (b.wMm / 2 + PAPER_OUTSET_MM) * cos, cy + (b.hMm / 2 + PAPER_OUTSET_MM) * sin);
      sum += greyAt(img, out.x, out.y) - greyAt(img, on.x, on.y);
      count += 1;
    }
  }
  return count === 0 ? 0 : sum / count;
}

/** The shift (template mm) that puts a question on its printed outlines; none when no shift clearly does better. */
export function registerQuestion(img: GreyImage, t: AffineTransform, question: ObjectiveQuestionLayout): Shift {
  const none = { dxMm: 0, dyMm: 0 };
  const base = outlineScore(img, t, question, none);
  let best = none;
  let bestScore = base;
  const steps = Math.round(MAX_SHIFT_MM / SHIFT_STEP_MM);
  for (let i = -steps; i <= steps; i += 1) {
    for (let j = -steps; j <= steps; j += 1) {
      const shift = { dxMm: i * SHIFT_STEP_MM, dyMm: j * SHIFT_STEP_MM };
      const score = outlineScore(img, t, question, shift);
      if (score > bestScore) {
        bestScore = score;
        best = shift;
      }
    }
  }
  return bestScore - base >= MIN_GAIN_GREY ? best : none;
}

/**
 * A local transform for readObjective: the page-wide transform, moved for each bubble by its
 * question's shift. A point of no question (never asked for by the reader) keeps the page-wide one.
 */
export function registeredPlacement(
  img: GreyImage,
  t: AffineTransform,
  questions: readonly ObjectiveQuestionLayout[],
): { place: LocalTransform; shifts: Map<number, Shift> } {
  const shifts = new Map<number, Shift>();
  const byCentre = new Map<string, AffineTransform>();
  const key = (x: number, y: number) => `${x.toFixed(3)},${y.toFixed(3)}`;
  for (const q of questions) {
    const shift = registerQuestion(img, t, q);
    shifts.set(q.questionNo, shift);
    // Moving the question by (dx, dy) mm moves its pixels by the transform's linear part times it.
    const moved = { ...t, e: t.e + t.a * shift.dxMm + t.c * shift.dyMm, f: t.f + t.b * shift.dxMm + t.d * shift.dyMm };
    for (const b of q.options) byCentre.set(key(b.xMm + b.wMm / 2, b.yMm + b.hMm / 2), moved);
  }
  return { place: (x, y) => byCentre.get(key(x, y)) ?? t, shifts };
}
