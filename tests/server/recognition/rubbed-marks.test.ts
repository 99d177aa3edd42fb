import { describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import {
  answerChanged,
  patchyCore,
  patchyGrey,
  rubbedCover,
  rubbedMarkCap,
  rubbedTexture,
} from '../../../server/services/recognition/rubbed-marks';

// Values measured on held-out halfErasedTexture, colourScan and scribbles sheets (issue 18).
describe('rubbed-marks', () => {
  it('doubts a lone half-erased mark whose ink passes a low ink threshold', () => {
    // halfErasedTexture-34 q17 F (truth blank): ink 0.176 over the page's threshold 0.082, read F at confidence 1.
    const b = { fill: 0.394, ink: 0.176, grey: 0.782 };
    expect(rubbedTexture(b)).toBe(true);
    expect(rubbedMarkCap(b, 0.061, 0.728)).toBeLessThan(LOW_CONFIDENCE);
    // halfErasedTexture-42 q20 F (truth blank): patchy, 0.86 of the bubble covered.
    expect(rubbedMarkCap({ fill: 0.351, ink: 0.193, grey: 0.663 }, 0.064, 0.709)).toBeLessThan(LOW_CONFIDENCE);
  });

  it('doubts a half-erased mark beside the fills of a multiple-choice question, even with more ink than grey', () => {
    // halfErasedTexture-35 q16 B (truth DE, read BDE at confidence 1): not a wash (ink 0.52 > grey 0.457).
    const b = { fill: 0.49, ink: 0.521, grey: 0.457 };
    expect(rubbedTexture(b)).toBe(true);
    expect(rubbedMarkCap(b, 0.064, 0.684)).toBeLessThan(LOW_CONFIDENCE);
  });

  it('leaves even light pencil fills, scribbles, solid fills and pages without firm fills alone', () => {
    // colourScan-0 q6 B: a light pencil answer, the bubble evenly covered.
    expect(rubbedMarkCap({ fill: 0.44, ink: 0.162, grey: 0.834 }, 0.06, 0.78)).toBe(1);
    // scribbles-16 q6 D: a dense scribble, grey only the rims of its strokes.
    expect(rubbedMarkCap({ fill: 0.5, ink: 0.46, grey: 0.414 }, 0.06, 0.75)).toBe(1);
    // A solid fill.
    expect(rubbedMarkCap({ fill: 0.8, ink: 0.99, grey: 0.01 }, 0.06, 0.75)).toBe(1);
    // No firm population on the page.
    expect(rubbedMarkCap({ fill: 0.394, ink: 0.176, grey: 0.782 }, 0.061, null)).toBe(1);
  });

  it('takes a single-choice question read with two marks, one a grey over its bubble, for an answer changed', () => {
    // Like halfErasedTexture-619 q3 (truth A, read AB, B at fill 0.298): a grey covering its bubble beside the new answer.
    const fill = { fill: 0.74, ink: 0.99, grey: 0.01 };
    const rubbed = { fill: 0.298, ink: 0.2, grey: 0.7 };
    const tick = { fill: 0.2, ink: 0.25, grey: 0.12 };
    expect(answerChanged([{ single: true, marks: [fill, rubbed] }])).toBe(true);
    // Two fills (a real double mark), a fill and a tick, or a grey beside a fill on a multiple-choice question: no sign.
    expect(answerChanged([{ single: true, marks: [fill, fill] }])).toBe(false);
    expect(answerChanged([{ single: true, marks: [fill, tick] }])).toBe(false);
    expect(answerChanged([{ single: false, marks: [fill, rubbed] }])).toBe(false);
    expect(answerChanged([{ single: true, marks: [rubbed] }])).toBe(false);
  });

  it('is certain at the firm marks level', () => {
    expect(rubbedMarkCap({ fill: 0.8, ink: 0.5, grey: 0.46 }, 0.06, 0.74)).toBe(1);
  });

  it('takes dense strokes over most of a bubble for what a rubber may have left, and a tick or a cross not', () => {
    // halfErasedTexture-72 q13 A (truth D, read AD at confidence 1): a rubber's streak, more ink than grey.
    const streak = { fill: 0.401, ink: 0.427, grey: 0.339 };
    expect(rubbedTexture(streak)).toBe(false);
    expect(rubbedCover(streak)).toBe(true);
    // halfErasedLight-14 q14 A and halfErasedLight-21 q13 A: a tick and a cross, answers.
    expect(rubbedCover({ fill: 0.171, ink: 0.139, grey: 0.221 })).toBe(false);
    expect(rubbedCover({ fill: 0.224, ink: 0.232, grey: 0.176 })).toBe(false);
    // A fill is no rubber's leftover.
    expect(rubbedCover({ fill: 0.8, ink: 0.99, grey: 0.01 })).toBe(false);
  });

  it('takes a mostly grey mark with light patches in its core for what a rubber may have left, light pencil not', () => {
    // halfErasedTexture-142 q13 E (truth ABD, read ABDE at confidence 0.777), on a page with too few rubbed bubbles.
    expect(patchyGrey({ fill: 0.476, ink: 0.413, grey: 0.58, coreLight: 0.843 })).toBe(true);
    // Light pencil beside fills: the accuracy bench's degraded scans, and a held-out colour scan.
    expect(patchyGrey({ fill: 0.483, ink: 0.191, grey: 0.809, coreLight: 1 })).toBe(false);
    expect(patchyGrey({ fill: 0.476, ink: 0.376, grey: 0.623, coreLight: 0.936 })).toBe(false);
    // A scribble: more ink than grey.
    expect(patchyGrey({ fill: 0.455, ink: 0.537, grey: 0.329, coreLight: 0.787 })).toBe(false);
    // Alone on a rubbed page the core alone tells: halfErasedTexture-230 q9 B (truth blank, read B at confidence 1).
    expect(patchyCore({ coreLight: 0.586 })).toBe(true);
    expect(patchyCore({ coreLight: 1 })).toBe(false);
  });
});
