import { describe, expect, it } from 'vitest';
import { isWash, residueConfidence, washMarkCap, WASH_GREY } from '../../../server/services/recognition/grey-marks';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';

// A page whose empty bubbles read 0.06 and whose solid fills rise 0.68 above them (fills of 0.74).
const EMPTY = 0.06;
const FIRM_RISE = 0.68;

describe('grey washes between a page of firm marks and its blank bubbles', () => {
  it('tells a wash from strokes of ink by how much of the bubble is grey', () => {
    // What a rubber left of a fill: some ink in its darkest patches, grey over most of the bubble.
    expect(isWash({ fill: 0.382, ink: 0.307, grey: 0.555 })).toBe(true);
    // A ballpoint tick or a cross: ink with a thin grey rim.
    expect(isWash({ fill: 0.29, ink: 0.31, grey: 0.19 })).toBe(false);
    // A dense scribble: much of the bubble grey between its strokes, but more of it ink.
    expect(isWash({ fill: 0.43, ink: 0.49, grey: 0.333 })).toBe(false);
    // A solid fill is no wash, whatever its edge.
    expect(isWash({ fill: 0.7, ink: 0.95, grey: WASH_GREY + 0.1 })).toBe(false);
  });

  it('never lets a half-erased mark (0.30-0.42 fill) beside firm fills be certain', () => {
    // The held-out cases that were scored unseen: fill 0.382 ink 0.307, and fill 0.302 ink 0.123.
    expect(washMarkCap({ fill: 0.382, ink: 0.307, grey: 0.555 }, EMPTY, FIRM_RISE)).toBeLessThan(LOW_CONFIDENCE);
    expect(washMarkCap({ fill: 0.302, ink: 0.123, grey: 0.672 }, EMPTY, FIRM_RISE)).toBeLessThan(LOW_CONFIDENCE);
    expect(washMarkCap({ fill: 0.42, ink: 0.2, grey: 0.7 }, EMPTY, FIRM_RISE)).toBeLessThan(LOW_CONFIDENCE);
  });

  it('leaves a wash as dark as the firm marks, strokes, and pages without firm marks alone', () => {
    expect(washMarkCap({ fill: 0.6, ink: 0.5, grey: 0.45 }, EMPTY, FIRM_RISE)).toBe(1);
    expect(washMarkCap({ fill: 0.29, ink: 0.31, grey: 0.19 }, EMPTY, FIRM_RISE)).toBe(1);
    // A light-pencil student: no firm population to stand apart from, the page's own marks decide.
    expect(washMarkCap({ fill: 0.382, ink: 0.307, grey: 0.555 }, EMPTY, null)).toBe(1);
  });

  it('grows surer the nearer a wash comes to the firm marks', () => {
    const at = (fill: number) => washMarkCap({ fill, ink: 0.2, grey: 0.7 }, EMPTY, FIRM_RISE);
    expect(at(0.3)).toBeLessThanOrEqual(at(0.4));
    expect(at(0.4)).toBeLessThan(at(0.5));
    expect(at(0.5)).toBeGreaterThan(LOW_CONFIDENCE);
  });
});

describe('what a rubber left, far under the firm marks', () => {
  it('reads a faint wash with no stroke in it as empty, surely, when it is far from the marks', () => {
    // Grey 190-220 in a rubber's texture: fill 0.2-0.26, a few pixels of ink, grey over the bubble.
    expect(residueConfidence({ fill: 0.26, ink: 0.038, grey: 0.94 }, EMPTY, FIRM_RISE)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(residueConfidence({ fill: 0.2, ink: 0.002, grey: 0.65 }, EMPTY, FIRM_RISE)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it('is no residue with the ink of a stroke, on a 1-bit page (no grey), or on a page without firm marks', () => {
    // A ballpoint tick read empty: its ink says a stroke is there.
    expect(residueConfidence({ fill: 0.2, ink: 0.15, grey: 0.6 }, EMPTY, FIRM_RISE)).toBeNull();
    // Faint pencil on a 1-bit scan: speckle, no grey.
    expect(residueConfidence({ fill: 0.12, ink: 0.04, grey: 0 }, EMPTY, FIRM_RISE)).toBeNull();
    expect(residueConfidence({ fill: 0.26, ink: 0.038, grey: 0.94 }, EMPTY, null)).toBeNull();
  });

  it('grows doubtful as the wash nears the light marks, and is none from there', () => {
    const at = (fill: number) => residueConfidence({ fill, ink: 0.02, grey: 0.9 }, EMPTY, FIRM_RISE);
    expect(at(0.3)!).toBeLessThan(at(0.25)!);
    expect(at(0.33)!).toBeLessThan(LOW_CONFIDENCE);
    expect(at(0.4)).toBeNull();
  });
});
