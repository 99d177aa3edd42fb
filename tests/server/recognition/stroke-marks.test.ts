import { describe, expect, it } from 'vitest';
import {
  STRAIGHT_RATIO,
  crossingBars,
  darkStrokeInk,
  greyInk,
  letterLevels,
  letterSpread,
  restFill,
  straightStroke,
  strokeEvidence,
  strokeShape,
  type StrokeMeasure,
} from '../../../server/services/recognition/stroke-marks';
import type { GreyImage } from '../../../server/services/recognition/grey-image';

const empty = (label: string): StrokeMeasure => ({
  label,
  fill: 0.06,
  ink: 0,
  inkDepth: 0,
  specks: 0,
  line: false,
  crossed: false,
  streak: false,
});
const page = {
  emptyInk: { level: 0, spread: 0.003 },
  emptyFill: { level: 0.06 },
  letters: letterLevels(['A', 'B', 'C', 'D'].flatMap((l) => [empty(l), empty(l), empty(l)])),
  letterSpread: 0,
};
/** A thin ballpoint tick: a tenth of the bubble in ink as dark as a fill, clean paper between its arms. */
const tick: StrokeMeasure = { ...empty('A'), ink: 0.1, inkDepth: 0.72, fill: 0.06 * 0.9 + 0.1 * 0.72, specks: 2 };

describe('restFill', () => {
  it('is the darkness of the paper between the ink pixels', () => {
    expect(restFill(tick)).toBeCloseTo(0.06, 3);
    expect(restFill({ fill: 0.33, ink: 0.2, inkDepth: 0.57 })).toBeGreaterThan(0.25);
  });
});

describe('strokeEvidence', () => {
  it('reads a thin tick on clean paper as a sure mark', () => {
    expect(strokeEvidence(tick, page)).toBe(1);
  });

  it('measures the rise above the empty bubbles of the same printed letter', () => {
    const darkLetter = {
      ...page,
      letters: letterLevels(['B', 'B', 'B'].map((l) => ({ ...empty(l), ink: 0.09, fill: 0.12 }))),
    };
    // The letter B's own ink, no more: no mark.
    expect(strokeEvidence({ ...empty('B'), ink: 0.095, inkDepth: 0.6, fill: 0.12 }, darkLetter)).toBeNull();
  });

  it('never takes what a rubber left (grey between the ink pixels) for strokes', () => {
    expect(strokeEvidence({ ...tick, ink: 0.2, inkDepth: 0.57, fill: 0.33, specks: 10 }, page)).toBeNull();
  });

  it('never takes the speckle of a 1-bit scan for strokes', () => {
    expect(strokeEvidence({ ...tick, ink: 0.06, inkDepth: 1, fill: 0.06 * 0.94 + 0.06, specks: 12 }, page)).toBeNull();
  });

  it('leaves a dust speck, a line and a streak to their own rules', () => {
    expect(strokeEvidence({ ...tick, ink: 0.02, fill: 0.07 }, page)).toBeNull();
    expect(strokeEvidence({ ...tick, line: true }, page)).toBeNull();
    expect(strokeEvidence({ ...tick, crossed: true }, page)).toBeNull();
    expect(strokeEvidence({ ...tick, streak: true }, page)).toBeNull();
  });

  it('doubts a stroke barely above the empty bubbles', () => {
    const faint = strokeEvidence({ ...tick, ink: 0.05, fill: 0.06 * 0.95 + 0.05 * 0.72 }, page);
    expect(faint).not.toBeNull();
    expect(faint!).toBeLessThan(0.6);
  });

  it('demands a clear gap over a page whose empty bubbles vary', () => {
    expect(strokeEvidence(tick, { ...page, emptyInk: { level: 0, spread: 0.02 } })).toBeNull();
  });
});

describe('greyInk', () => {
  it('tells a grey with odd ink pixels from strokes and fills', () => {
    expect(greyInk({ ...empty('A'), ink: 0.385, inkDepth: 0.57, fill: 0.398 }, page, 0.7)).toBe(true);
    expect(greyInk(tick, page, 0.7)).toBe(false);
    expect(greyInk({ ...empty('A'), ink: 1, inkDepth: 0.8, fill: 0.8 }, page, 0.7)).toBe(false);
  });

  it("takes a dense scribble for strokes, a rubber's grey with darker pixels still for a grey", () => {
    // A zigzag scribble over the bubble: the paper between its strokes is grey with their blurred
    // edges (0.17 over the empty level), but its dark ink makes most of its darkness.
    const scribble = { ...empty('A'), ink: 0.352, inkDepth: 0.641, fill: 0.334 };
    expect(restFill(scribble) - 0.06).toBeGreaterThan(0.09);
    expect(greyInk(scribble, page, 0.7)).toBe(false);
    // What a rubber left in patches (grey 140-190): grey all over, its ink pixels barely darker.
    expect(greyInk({ ...empty('A'), ink: 0.378, inkDepth: 0.627, fill: 0.392 }, page, 0.7)).toBe(true);
    expect(greyInk({ ...empty('A'), ink: 0.323, inkDepth: 0.59, fill: 0.355 }, page, 0.7)).toBe(true);
  });
});

describe('strokeShape', () => {
  const identity = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };
  const bubble = { label: 'A', xMm: 0, yMm: 0, wMm: 50, hMm: 36 };
  function draw(paint: (x: number, y: number) => boolean): GreyImage {
    const data = new Uint8Array(60 * 40).fill(240);
    for (let y = 0; y < 40; y += 1) for (let x = 0; x < 60; x += 1) if (paint(x, y)) data[y * 60 + x] = 20;
    return { data, width: 60, height: 40 };
  }

  it('finds one straight stroke straight, and a tick, a cross or a dot not', () => {
    const line = draw((x, y) => Math.abs(y - 18 - (x - 25) * 0.3) < 1 && x > 10 && x < 40);
    expect(straightStroke(strokeShape(line, identity, identity, bubble, 2, 130))).toBe(true);
    const check = draw(
      (x, y) => (Math.abs(y - 18 - (x - 20)) < 1 && x > 14 && x < 22) || (Math.abs(y - 20 + (x - 22)) < 1 && x > 21 && x < 36),
    );
    expect(strokeShape(check, identity, identity, bubble, 2, 130)).toBeGreaterThan(STRAIGHT_RATIO);
    const cross = draw((x, y) => (Math.abs(y - 18 - (x - 25)) < 1 || Math.abs(y - 18 + (x - 25)) < 1) && Math.abs(x - 25) < 8);
    expect(crossingBars(strokeShape(cross, identity, identity, bubble, 2, 130))).toBe(true);
    // A tick is no cross: its arms run out of the bubble as a line through it would, so it stays doubtful.
    expect(crossingBars(strokeShape(check, identity, identity, bubble, 2, 130))).toBe(false);
    expect(crossingBars(strokeShape(line, identity, identity, bubble, 2, 130))).toBe(false);
    const dot = draw((x, y) => (x - 25) ** 2 + (y - 18) ** 2 < 16);
    expect(strokeShape(dot, identity, identity, bubble, 2, 130)).toBeGreaterThan(0.8);
  });
});

describe('letterSpread and darkStrokeInk', () => {
  // A contrasty scan: each letter's glyph is ink of its own (B darkest), alike within the letter.
  const glyph: Record<string, number> = { A: 0.108, B: 0.155, C: 0.087, D: 0.13 };
  const emptyOf = (l: string, k: number) => ({ ...empty(l), ink: glyph[l]! + (k - 1) * 0.003, inkDepth: 0.6 });
  const emptyBubbles = ['A', 'B', 'C', 'D'].flatMap((l) => [0, 1, 2].map((k) => emptyOf(l, k)));
  const letters = letterLevels(emptyBubbles);
  const contrasty = {
    emptyInk: { level: 0.104, spread: 0.036 },
    emptyFill: { level: 0.114 },
    letters,
    letterSpread: letterSpread(emptyBubbles, letters),
  };

  it('measures the spread about each letter’s own level, not the differences between letters', () => {
    expect(contrasty.letterSpread).toBeLessThan(0.005);
    expect(letterSpread(emptyBubbles, new Map())).toBe(0);
  });

  it('finds a dark stroke the page’s spread hides, and not a letter’s own glyph', () => {
    // A slash across an E (no empty E of its own on the page): as dark as a stroke, well above the darkest glyph.
    const slash = { ...empty('E'), ink: 0.204, fill: 0.206, inkDepth: 0.75 };
    expect(strokeEvidence(slash, contrasty)).toBeNull();
    expect(darkStrokeInk(slash, contrasty)).toBe(true);
    expect(darkStrokeInk({ ...slash, ink: 0.17 }, contrasty)).toBe(false);
    expect(darkStrokeInk({ ...emptyOf('B', 2), inkDepth: 0.75 }, contrasty)).toBe(false);
    // Grey, not a stroke's darkness; or a line already read across the bubble.
    expect(darkStrokeInk({ ...slash, inkDepth: 0.5 }, contrasty)).toBe(false);
    expect(darkStrokeInk({ ...slash, line: true }, contrasty)).toBe(false);
  });
});
