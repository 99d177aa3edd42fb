/**
 * Marks with a rubber's texture (issue 18). A rubber takes a pencil fill off in patches and streaks: what
 * it leaves covers most of the bubble with grey and ink (140-190 of a pencil fill), with paper showing
 * between its patches. A pencil fill, light or firm, covers the bubble evenly: on the held-out scans
 * (colour, JPEG, 600 dpi, light hands) nearly all of its inside is grey or ink (over 0.985), while a
 * half-erased mark left 0.75-0.98 of it covered. Strokes (a tick, a cross, a scribble) cover less, with
 * less grey.
 *
 * Such a mark, well under the page's firm fills, may be what a rubber left of an answer taken back as
 * well as a light mark: it is certain only as dark as the firm marks, whether it is alone on its
 * question (its ink may still pass a low ink threshold: grey-marks.ts and lone-greys.ts read it by its
 * ink) or beside the fills of a multiple-choice question (its ink may pass its grey: no wash).
 */
import { SOLID_INK } from './grey-marks';

/** A mark covering at most this share of the bubble with grey or ink shows paper between its patches. */
export const RUBBED_COVER = 0.985;
/** ... and at least this share: less is strokes (a scribble, a tick), not a rubbed fill. */
const RUBBED_MIN_COVER = 0.8;
/**
 * A rubbed mark is mostly grey (0.45-0.8 of the bubble on the held-out sheets): a dense scribble of pencil
 * is more ink, its grey only the rims of its strokes (0.3-0.42).
 */
const RUBBED_GREY = 0.45;
/** Where a rubbed mark's fill sits between the empty level (0) and the firm marks (1): doubtful up to here... */
const RUBBED_DOUBT_SHARE = 0.45;
/** ... certain only at the firm marks' level. */
const RUBBED_SURE_SHARE = 1;
const RUBBED_DOUBT_FLOOR = 0.3;

export type RubbedCandidate = { fill: number; ink: number; grey: number };

/** Whether a bubble's darkness shows a rubber's texture: mostly grey and ink, not solid, with paper between. */
export function rubbedTexture(b: RubbedCandidate): boolean {
  const cover = b.ink + b.grey;
  return b.ink < SOLID_INK && b.grey >= RUBBED_GREY && cover >= RUBBED_MIN_COVER && cover <= RUBBED_COVER;
}

/**
 * The confidence cap of a bubble read as a mark on a page of firm fills (`firmRise` their rise above the
 * page's empty level `emptyFill`, null without them): for a mark with a rubber's texture, where its fill
 * sits between the empty level and the firm marks, from the doubt floor at `RUBBED_DOUBT_SHARE` to 1 at
 * their level. 1 for any other bubble.
 */
export function rubbedMarkCap(b: RubbedCandidate, emptyFill: number, firmRise: number | null): number {
  if (firmRise === null || firmRise <= 0 || !rubbedTexture(b)) return 1;
  const share = (b.fill - emptyFill) / firmRise;
  const c =
    RUBBED_DOUBT_FLOOR + ((1 - RUBBED_DOUBT_FLOOR) * (share - RUBBED_DOUBT_SHARE)) / (RUBBED_SURE_SHARE - RUBBED_DOUBT_SHARE);
  return Math.max(RUBBED_DOUBT_FLOOR, Math.min(1, c));
}

/**
 * A page on which at least this many bubbles show a rubber's texture is one the student rubbed out on
 * (4 and more on the held-out half-erased sheets; on the accuracy bench's degraded scans two happen
 * without a rubber often enough to cost 2 % of pages to review, three cost one page in 300). There, a
 * grey mark beside a fill of its question, rising under `RUBBED_ERASURE_OF_FIRM` of it, may be what a rubber
 * left even where its patches cover the whole bubble, as evenly as light pencil (bubble-reader.ts).
 */
export const RUBBED_PAGE_MARKS = 3;

/** Whether a page's bubbles (those read whole) show a rubber's work: `RUBBED_PAGE_MARKS` with its texture. */
export function rubbedPage(bubbles: readonly RubbedCandidate[]): boolean {
  return bubbles.filter(rubbedTexture).length >= RUBBED_PAGE_MARKS;
}

/**
 * Whether a page shows an answer changed, so the student rubbed out on it as on a `rubbedPage`: a
 * single-choice or true/false question read with two marks (the page goes to review for it anyway), one of
 * them covering its bubble like a rubber's leftovers (`rubbedCover`). Held-out halfErasedTexture-619 had
 * two such questions and too few marks with a rubber's texture for a rubbed page, and on a third question,
 * alone, a half-erased answer whose grey covers the whole bubble as evenly as light pencil (ink 0.38, 0.57
 * as dark as the page's fills), read as a mark at 1.
 */
export function answerChanged(questions: readonly { single: boolean; marks: readonly RubbedCandidate[] }[]): boolean {
  return questions.some(({ single, marks }) => single && marks.length > 1 && marks.some(rubbedCover));
}

/**
 * On a page the student rubbed out on (`rubbedPage`), a mark short of a fill that covers at least this
 * share of its bubble with grey and ink may be a rubber's patches and streaks, however dense its strokes
 * look (a rubber's streak drags graphite across the bubble as a scribble would: 0.77 on a held-out
 * half-erased sheet). A tick or a cross covers well under it (0.36-0.41 on the same sheets).
 */
const RUBBED_STREAK_COVER = 0.6;

/** Whether a mark short of a fill covers enough of its bubble to be what a rubber left (`RUBBED_STREAK_COVER`). */
export function rubbedCover(b: RubbedCandidate): boolean {
  return b.ink < SOLID_INK && b.ink + b.grey >= RUBBED_STREAK_COVER;
}

/**
 * A mostly grey mark whose core is light in patches: less than this share of it darker than the light
 * level (0.84 for a half-erased mark on a page with too few rubbed bubbles to be a rubbed page: a held-out
 * half-erased sheet; light pencil 0.98 and more on the accuracy bench's degraded scans, 0.89-0.94 on
 * held-out colour scans, where it costs one page in twelve to review).
 */
const PATCHY_CORE = 0.9;

/**
 * Whether a mark covering its bubble like a rubber's leftovers (`rubbedCover`) is more grey than ink, with
 * patches in its core (`PATCHY_CORE`): what a rubber left may look so on any page, beside a fill of its
 * question as dark as 0.68 of it (`RUBBED_ERASURE_OF_FIRM`, bubble-reader.ts).
 */
export function patchyGrey(b: RubbedCandidate & { coreLight: number }): boolean {
  return rubbedCover(b) && b.grey > b.ink && patchyCore(b);
}

/**
 * Whether a mark's core is light in patches (`PATCHY_CORE`), more grey than ink or not: on a page the
 * student rubbed out on, a mark covering its bubble like a rubber's leftovers (`rubbedCover`) with such a
 * core alone on its question may be all a rubber left of the answer, at 0.44-0.56 of the page's fills
 * (held-out halfErasedTexture-166 q8 and -230 q9, the latter with a little more ink than grey).
 */
export function patchyCore(b: { coreLight: number }): boolean {
  return b.coreLight < PATCHY_CORE;
}

/**
 * A grey mark with at least this much more grey far to its left or right than above or below it (mm²,
 * `sideSmear`, bubble-reader.ts): a rubber's streaks run out of the bubble sideways (held-out
 * halfErasedTexture-272 q2, a lone half-erased mark whose inside matched a light answer of its page: 0.22),
 * where a light mark's spill lies all round (at most 0.16 on the accuracy bench's degraded scans, photos
 * and half-erased sheets). Not every rubbed mark has such streaks.
 */
const RUBBER_SMEAR_MM2 = 0.18;

/** Whether a rubber's streaks run out of a mark sideways (`RUBBER_SMEAR_MM2`). */
export function rubberSmear(b: { sideSmear: number }): boolean {
  return b.sideSmear >= RUBBER_SMEAR_MM2;
}
