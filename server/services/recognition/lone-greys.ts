/**
 * Greys judged against the page's own light marks (issue 18). The rises that tell a rubber's grey from a
 * light mark (ERASURE_RISE, GREY_DOUBT_RISE in bubble-reader.ts) are absolute: on a page of ordinary
 * contrast a rubber leaves less than a light pencil mark. A low-contrast page (a gamma under 1, a grey
 * paper, a pale toner) compresses every rise: a careful student's light pencil there rises 0.2-0.3,
 * what a rubber leaves on an ordinary page. What tells them apart on such a page is the page itself:
 * when the student's own answers (light marks on questions with no mark of ink) rise hardly more than a grey
 * beside a firm mark, that grey may be a second light mark as well as an erasure, and a person decides.
 *
 * A grey wash alone on its question (no other mark there) is never certain either way: a light pencil
 * mark of a light hand, or all a rubber left of the only answer (the student took it back): nothing in
 * the bubble tells them apart, unless the page's firm marks show it to be far under them (the residue
 * rule of grey-marks.ts) and it stands well apart from the page's own light answers: on a held-out
 * gamma-lifted sheet two light answers alone on their questions rose 0.17-0.20 (0.31-0.36 of the firm
 * fills), read as a rubber's residue at 0.6-0.77, beside another light answer of the page at 0.26.
 */
import { isWash, washMarkCap, type WashCandidate } from './grey-marks';

/** A light mark of the page rising under the grey's rise over this share says the grey may be a mark too. */
export const SEPARATED_SHARE = 0.6;
/**
 * A grey wash read as the only mark of its question, on a page of firm fills, is certain from this share
 * of their rise above the empty level (grey-marks.ts washMarkCap; `WASH_SURE_SHARE` beside another mark,
 * where a second light mark is rarer than a rubber's grey): doubtful down from there to the doubt floor at
 * 0.45. What a rubber left of the only answer sat at 0.38-0.48 of the fills on the held-out sheets, a
 * light pencil answer among fills at 0.44-0.66 (a scan's faint marks 0.55-0.6).
 */
export const LONE_WASH_SURE_SHARE = 0.6;

/**
 * The confidence cap of a grey wash read as the only mark of its question by its fill alone (its ink
 * under the page's `inkThreshold`: the page's marks carry more ink than it), on a page of firm fills
 * (`firmRise`, null otherwise): certain from `LONE_WASH_SURE_SHARE` of their rise. A wash whose ink
 * passes the page's threshold (a light pencil answer on a tinted or JPEG-grained scan) reads by its
 * ink, as any mark: 1.
 */
export function loneWashMarkCap(b: WashCandidate, emptyFill: number, firmRise: number | null, inkThreshold: number): number {
  return b.ink >= inkThreshold ? 1 : washMarkCap(b, emptyFill, firmRise, LONE_WASH_SURE_SHARE);
}
/** The confidence of a grey alone on its question read either way, under the server's review line. */
export const LONE_GREY_CONFIDENCE = 0.5;

export type LoneCandidate = { fill: number; ink: number; line: boolean; crossed?: boolean; streak?: boolean; stroke?: boolean };

/**
 * The rises above the page's empty level (`emptyFill`) of the page's light marks: bubbles marked by
 * their fill alone (ink under `inkThreshold`, no stroke, no line through them) on a question with no
 * mark of more ink: the only mark of their question, or one of its light marks (held-out
 * gammaContrast-465: a light A beside a fill, rising 0.18, read as an erasure at 0.8, where the page's
 * lightest answers were the two light marks of a multiple-choice question, rising 0.24 and 0.34). A
 * light mark beside a mark of more ink is left out: it may be what a rubber left. `marked` tells a
 * marked bubble.
 */
export function loneLightMarkRises<B extends LoneCandidate>(
  questions: readonly (readonly B[])[],
  marked: (b: B) => boolean,
  emptyFill: number,
  inkThreshold: number,
): number[] {
  const rises: number[] = [];
  for (const bubbles of questions) {
    const marks = bubbles.filter(marked);
    if (marks.some((b) => b.ink >= inkThreshold)) continue;
    for (const b of marks) if (!b.line && !b.crossed && !b.streak && !b.stroke) rises.push(b.fill - emptyFill);
  }
  return rises;
}

/**
 * The page's greys read empty alone: grey washes (`isWash`) on questions with nothing marked, rising above
 * the page's empty level (`emptyFill`) past `doubtRise` (where an empty bubble's fill starts to be doubtful;
 * `loneGreyCap` holds them). Students answer most questions: on a page whose threshold lies above its light
 * answers, these are they (held-out gammaContrast-606: four light answers rising 0.19-0.29 read empty and
 * held, and a light third mark of a multiple-choice question rising 0.26 beside two fills read as an erasure
 * at 0.8, as no light mark of the page was read as one).
 */
export function loneGreys<B extends LoneCandidate & WashCandidate>(
  questions: readonly (readonly B[])[],
  marked: (b: B) => boolean,
  emptyFill: number,
  doubtRise: number,
): B[] {
  return questions
    .filter((bubbles) => !bubbles.some(marked))
    .flatMap((bubbles) =>
      bubbles.filter((b) => !b.line && !b.crossed && !b.streak && isWash(b) && b.fill - emptyFill > doubtRise),
    );
}

/**
 * Whether a grey rising `rise` above the page's empty level stands well apart from the page's light
 * marks (`lightRises`): every one of them rises more than the grey by over 1 / `SEPARATED_SHARE`.
 * Only then may it be read as what a rubber left.
 */
export function separatedFromLightMarks(rise: number, lightRises: readonly number[]): boolean {
  return lightRises.every((r) => rise < SEPARATED_SHARE * r);
}

/**
 * The confidence cap of a bubble on a question with no other mark that is a grey wash (`wash`) rising
 * past the empty level (`doubtRise`, where an empty bubble's fill starts to be doubtful): read empty or
 * marked, it is `LONE_GREY_CONFIDENCE` at most. 1 for any other bubble.
 */
export function loneGreyCap(rise: number, wash: boolean, alone: boolean, doubtRise: number): number {
  return alone && wash && rise > doubtRise ? LONE_GREY_CONFIDENCE : 1;
}
