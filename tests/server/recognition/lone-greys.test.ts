import { describe, expect, it } from 'vitest';
import {
  loneWashMarkCap,
  loneGreyCap,
  loneGreys,
  loneLightMarkRises,
  separatedFromLightMarks,
} from '../../../server/services/recognition/lone-greys';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';

type B = { fill: number; ink: number; line: boolean; crossed?: boolean; streak?: boolean; stroke?: boolean };
const bubble = (fill: number, ink = 0, more: Partial<B> = {}): B => ({ fill, ink, line: false, ...more });
const EMPTY = 0.033;
const INK_THRESHOLD = 0.18;
const FILL_THRESHOLD = 0.2;
const marked = (b: B) => b.ink >= INK_THRESHOLD || b.fill >= FILL_THRESHOLD || b.stroke === true;

describe("greys judged against the page's own light marks", () => {
  it("takes the page's light marks from fills on a question with no mark of ink, without stroke or line", () => {
    const questions = [
      [bubble(0.343), bubble(0.04), bubble(0.03)], // a light pencil answer
      [bubble(0.273), bubble(0.05)], // another
      [bubble(0.65, 0.99), bubble(0.24), bubble(0.04)], // a firm mark with a grey beside it: may be a rubber's
      [bubble(0.7, 0.99), bubble(0.04)], // a firm fill: ink
      [bubble(0.3, 0.1, { line: true }), bubble(0.04)], // a line through it
      [bubble(0.3, 0.1, { stroke: true }), bubble(0.04)], // a tick
      [bubble(0.04), bubble(0.05)], // blank
      // Held-out gammaContrast-465 q15: two light marks of a multiple-choice question, neither with ink.
      [bubble(0.276), bubble(0.372, 0.038), bubble(0.03)],
    ];
    const rises = loneLightMarkRises(questions, marked, EMPTY, INK_THRESHOLD);
    expect(rises.map((r) => Math.round((r + EMPTY) * 1000) / 1000)).toEqual([0.343, 0.273, 0.276, 0.372]);
  });

  it("takes the page's greys read empty alone on their questions as light answers too", () => {
    // Held-out gammaContrast-606 (threshold 0.394 over its light answers): q14 B and q17 F, grey washes
    // alone on their questions, read empty; q15 D, a light third mark beside fills, was read as an erasure.
    type G = B & { grey: number };
    const grey = (fill: number, g: number, more: Partial<G> = {}): G => ({ ...bubble(fill), grey: g, ...more });
    const threshold = (b: G) => b.fill >= 0.394;
    const questions = [
      [grey(0.046, 0.1), grey(0.3, 0.9), grey(0.041, 0.1)], // q14: a light answer read empty
      [grey(0.038, 0.1), grey(0.285, 0.85)], // q17
      [grey(0.628, 0.2, { ink: 0.99 }), grey(0.307, 0.9), grey(0.455, 0.8)], // q15: marked, left out
      [grey(0.3, 0.9, { streak: true }), grey(0.04, 0.1)], // beside a streak: left out
      [grey(0.25, 0.1, { ink: 0.2 }), grey(0.04, 0.1)], // strokes, no wash: left out
      [grey(0.09, 0.9), grey(0.04, 0.1)], // a grey no more than an empty bubble's doubt: left out
    ];
    const greys = loneGreys(questions, threshold, 0.05, 0.06);
    expect(greys.map((b) => b.fill)).toEqual([0.3, 0.285]);
    const rises = greys.map((b) => b.fill - 0.05);
    // D rises 0.257: not well apart from the page's light answers read empty, so no sure erasure.
    expect(separatedFromLightMarks(0.307 - 0.05, rises)).toBe(false);
  });

  it('doubts a grey beside a firm mark as an erasure on a low-contrast page whose light answers rise little more', () => {
    // Held-out gammaContrast-22 q14 (gamma under 1): E at 0.242 beside firm A and B, the page's light
    // answers at 0.25-0.34 without ink: E may be a second light mark as well as what a rubber left.
    const rise = 0.242 - EMPTY;
    expect(separatedFromLightMarks(rise, [0.343 - EMPTY, 0.273 - EMPTY, 0.254 - EMPTY])).toBe(false);
    // A page whose only answers are firm fills (no light marks) or whose light marks rise far more: an erasure.
    expect(separatedFromLightMarks(rise, [])).toBe(true);
    expect(separatedFromLightMarks(rise, [0.6, 0.55])).toBe(true);
  });

  it('never reads a grey wash alone on its question surely empty', () => {
    // Held-out gammaContrast-12 q18: a light mark T at 0.202 (empty 0.038), grey over 93 % of the bubble,
    // read empty with confidence 0.603.
    expect(loneGreyCap(0.202 - 0.038, true, true, 0.12)).toBeLessThan(LOW_CONFIDENCE);
    // Beside another mark of its question, no wash, or no rise past the empty level: nothing to say.
    expect(loneGreyCap(0.164, true, false, 0.12)).toBe(1);
    expect(loneGreyCap(0.164, false, true, 0.12)).toBe(1);
    expect(loneGreyCap(0.05, true, true, 0.12)).toBe(1);
  });

  it('never reads a half-erased wash alone on its question surely as the answer on a page of firm fills', () => {
    // Held-out halfErasedTexture-12 q4: C at 0.382 (ink 0.144, grey 0.8) alone on a single-choice question,
    // fills of the page rising 0.66 above its empty level 0.06: read as the answer with confidence 0.621.
    // The page's ink threshold 0.418: C is read by its fill alone.
    const lone = (fill: number, ink: number, grey: number, inkThreshold = 0.418) =>
      loneWashMarkCap({ fill, ink, grey }, 0.06, 0.665, inkThreshold);
    expect(lone(0.382, 0.144, 0.801)).toBeLessThan(LOW_CONFIDENCE);
    // What a rubber left of the only answer elsewhere on the held-out sheets: 0.38 and 0.43 of the fills.
    expect(lone(0.06 + 0.38 * 0.665, 0.058, 0.79)).toBeLessThan(LOW_CONFIDENCE);
    expect(lone(0.06 + 0.433 * 0.665, 0.141, 0.78)).toBeLessThan(LOW_CONFIDENCE);
    // A scan's faint pencil answer among fills (0.55-0.6 of them) stays certain enough to be scored.
    expect(lone(0.06 + 0.55 * 0.665, 0.15, 0.82)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(lone(0.06 + 0.6 * 0.665, 0.15, 0.82)).toBe(1);
    // A light pencil answer whose ink passes the page's ink threshold (a tinted colour scan) reads by its ink.
    expect(lone(0.383, 0.163, 0.8, 0.091)).toBe(1);
  });
});
