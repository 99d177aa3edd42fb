/**
 * Grey marks between a page's populations (issue 18). A rubber leaves grey of 140-195 of a pencil fill,
 * in patches and streaks: its darkest patches pass the ink level, so such a grey may carry as much ink
 * as a tick (0.1-0.4 of the bubble) and be read as a mark, sure by its ink alone. What tells it from a
 * stroke is its tone: a stroke of pencil or pen is ink with a thin grey rim, a rubbed grey (or a light
 * pencil fill, nothing tells them apart) is grey over most of the bubble. On a page whose student marks
 * firmly (`pageFills`: six or more solid fills), such a wash well under the firm marks sits between
 * the page's blank and marked populations, and is never certain as a mark: its confidence is where its
 * fill sits between the empty level and the firm marks' level, as for any mark read from its fill. A
 * page of consistently light marks has no firm population, and is read against its own marks as before.
 */

/** A pixel lighter than ink but darker than this share of the way from paper to toner is grey (paper noise and JPEG stay under it). */
export const GREY_LEVEL = 0.15;
/**
 * A mark with at least this share of its inside grey (lighter than ink), and more of it grey than ink,
 * is a wash, not strokes: ticks, crosses and dots of pencil or pen leave 0.12-0.26 grey (the rims of
 * their strokes and the printed letter, 0.15-0.23 in an empty bubble), a dense scribble up to 0.42 but
 * more ink than that; what a rubber leaves of a fill 0.33-0.88 grey, always more than its ink, a light
 * pencil fill 0.75-0.9.
 */
export const WASH_GREY = 0.3;
/** Ink share from which a bubble is a fill (no wash whatever its grey, no rubbed mark, no line's work). */
export const SOLID_INK = 0.7;
/**
 * Where a wash's fill sits between the page's empty level (0) and its firm marks' level (1): certain as
 * a mark from `WASH_SURE_SHARE`, as doubtful as a trace (`WASH_DOUBT_FLOOR`) up to `WASH_DOUBT_SHARE`
 * (the reader's shares for a mark read from its fill alone). A half-erased fill sits at 0.3-0.55.
 */
const WASH_DOUBT_SHARE = 0.45;
const WASH_SURE_SHARE = 0.72;
const WASH_DOUBT_FLOOR = 0.3;

export type WashCandidate = { fill: number; ink: number; grey: number };

/** Whether a bubble's darkness is a grey wash over it rather than strokes of ink (or a fill). */
export function isWash(b: WashCandidate): boolean {
  return b.ink < SOLID_INK && b.grey >= WASH_GREY && b.grey > b.ink;
}

/**
 * The confidence cap of a bubble read as a mark, from where its fill sits between the page's empty
 * level and the rise of its firm marks (`firmRise`, null on a page without a firm population): 1 for
 * strokes and fills, and for a wash as dark as the firm marks; under the doubt line for a wash well
 * under them (what a rubber left, or a light mark beside firm ones: a person decides). `sureShare`: the
 * share of the firm marks' rise from which a wash is certain (`WASH_SURE_SHARE` beside another mark).
 */
export function washMarkCap(b: WashCandidate, emptyFill: number, firmRise: number | null, sureShare = WASH_SURE_SHARE): number {
  if (firmRise === null || firmRise <= 0 || !isWash(b)) return 1;
  const share = (b.fill - emptyFill) / firmRise;
  const c = WASH_DOUBT_FLOOR + ((1 - WASH_DOUBT_FLOOR) * (share - WASH_DOUBT_SHARE)) / (sureShare - WASH_DOUBT_SHARE);
  return Math.max(WASH_DOUBT_FLOOR, Math.min(1, c));
}

/**
 * What a rubber leaves of a mark when it takes nearly all of it (grey 190-220 in its texture): a faint
 * wash over at least this share of the bubble, lighter than ink but for a few pixels of its texture
 * (`RESIDUE_INK`; a stroke of pencil read empty, a light tick or a trace of a fill, leaves 0.09 and
 * more ink). A 1-bit scan has no grey: its speckle is never taken for one.
 */
const RESIDUE_GREY = 0.5;
const RESIDUE_INK = 0.05;
/**
 * A residue whose fill sits under this share of the way from the empty level to the page's firm marks
 * is clearly none of them (what a rubber left reads 0.15-0.32), and reads empty `RESIDUE_CONFIDENCE`;
 * from there its confidence falls to the doubt floor at `WASH_DOUBT_SHARE`, where a wash is as likely a
 * light mark.
 */
const RESIDUE_SHARE = 0.3;
const RESIDUE_CONFIDENCE = 0.8;

/**
 * How surely an empty-read bubble is what a rubber left, on a page of firm marks (`firmRise` null
 * otherwise): a faint wash with no stroke in it, far under the firm marks. Null when it is no such
 * residue (its other doubts stand).
 */
export function residueConfidence(b: WashCandidate, emptyFill: number, firmRise: number | null): number | null {
  if (firmRise === null || firmRise <= 0 || b.ink > RESIDUE_INK || b.grey < RESIDUE_GREY) return null;
  const share = (b.fill - emptyFill) / firmRise;
  if (share >= WASH_DOUBT_SHARE) return null;
  if (share <= RESIDUE_SHARE) return RESIDUE_CONFIDENCE;
  return (
    RESIDUE_CONFIDENCE - ((RESIDUE_CONFIDENCE - WASH_DOUBT_FLOOR) * (share - RESIDUE_SHARE)) / (WASH_DOUBT_SHARE - RESIDUE_SHARE)
  );
}
