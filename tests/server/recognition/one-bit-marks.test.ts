import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeGrey, type GreyImage } from '../../../server/services/recognition/grey-image';
import {
  densityImage,
  isOneBitImage,
  MIN_ROOT_GAP,
  oneBitConfidence,
  oneBitMarkIsSure,
  rootCount,
  splitOneBitPage,
  unconfirmedFaintMarks,
} from '../../../server/services/recognition/one-bit-marks';
import { recognizePage } from '../../../server/services/recognition/page-recognizer';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { renderSyntheticSheet, sheetFixture, standardSpec, type SheetMark } from '../../support/synthetic-sheets';

/** An image of `width` x `height` whose pixels `pixel` gives. */
function image(width: number, height: number, pixel: (x: number, y: number) => number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = pixel(x, y);
  return { data, width, height };
}

describe('telling a 1-bit page', () => {
  it('takes a page of two grey levels as 1-bit, and a grey scan (noise in every pixel) as not', () => {
    const random = seededRandom(3);
    expect(isOneBitImage(image(300, 400, () => (random() < 0.05 ? 0 : 255)))).toBe(true);
    // Whatever two levels a palette gave black and white.
    expect(isOneBitImage(image(300, 400, () => (random() < 0.05 ? 12 : 250)))).toBe(true);
    expect(isOneBitImage(image(300, 400, () => 240 + Math.floor(random() * 8)))).toBe(false);
    // A 1-bit page stored as JPEG is a grey page: its ringing has many levels.
    expect(isOneBitImage(image(300, 400, (x) => (x % 50 < 3 ? 0 : 250 + (x % 3))))).toBe(false);
  });
});

describe('the density image of a 1-bit page', () => {
  it('turns a density of black pixels into grey, keeping the mean', () => {
    const random = seededRandom(9);
    // A dithered grey: 30 % black on the left half, paper on the right.
    const bits = image(120, 80, (x) => (x < 60 && random() < 0.3 ? 0 : 255));
    const grey = densityImage(bits, 2);
    const mean = (img: GreyImage, x0: number, x1: number) => {
      let sum = 0;
      for (let y = 10; y < 70; y += 1) for (let x = x0; x < x1; x += 1) sum += img.data[y * img.width + x]!;
      return sum / ((x1 - x0) * 60);
    };
    // The mean over a window, but for the blur's reach over its edges.
    expect(Math.abs(mean(grey, 10, 50) - mean(bits, 10, 50))).toBeLessThan(2);
    expect(mean(grey, 10, 50)).toBeGreaterThan(255 * 0.6);
    expect(mean(grey, 10, 50)).toBeLessThan(255 * 0.8);
    expect(mean(grey, 70, 110)).toBe(255);
    // No pixel of the dithered half stays black: the pattern is averaged away.
    let darkest = 255;
    for (let y = 10; y < 70; y += 1) for (let x = 10; x < 50; x += 1) darkest = Math.min(darkest, grey.data[y * 120 + x]!);
    expect(darkest).toBeGreaterThan(60);
  });
});

describe("a 1-bit page's two populations", () => {
  const inside = 650;
  const roots = (densities: number[]) => densities.map((d) => rootCount(d, inside));
  const empties = (n: number, top: number) => Array.from({ length: n }, (_, i) => (top * i) / (n - 1));

  it('splits faint speckle marks from empty bubbles that kept no black at all', () => {
    const split = splitOneBitPage(roots([...empties(60, 0), 0.031, 0.04, 0.06, 0.1, 0.17, 0.9, 0.95]))!;
    expect(split).not.toBeNull();
    expect(split.emptyTop).toBe(0);
    expect(split.markBottom).toBeCloseTo(rootCount(0.031, inside));
  });

  it("splits above empty bubbles whose printed letter leaves a few specks, and below a dithered page's marks", () => {
    const letters = splitOneBitPage(roots([...empties(60, 0.023).map((d) => d + 0.005), 0.1, 0.11, 0.13, 0.3, 0.9]))!;
    expect(letters.emptyTop).toBeCloseTo(rootCount(0.028, inside));
    expect(letters.markBottom).toBeCloseTo(rootCount(0.1, inside));
    const dither = splitOneBitPage(roots([...empties(60, 0.045).map((d) => d + 0.065), 0.27, 0.3, 0.5, 0.75]))!;
    expect(dither.markBottom).toBeCloseTo(rootCount(0.27, inside));
  });

  it('finds no split when marks trail off into the empty bubbles, nor on a page of empty bubbles', () => {
    const trail = Array.from({ length: 80 }, (_, i) => Math.sqrt(i * 4));
    expect(splitOneBitPage(trail)).toBeNull();
    expect(splitOneBitPage(roots(empties(60, 0.02)))).toBeNull();
  });

  it('is sure of the bubbles on either edge of a clear gap, less and less nearer its middle', () => {
    const split = { threshold: 5, emptyTop: 5 - MIN_ROOT_GAP / 2, markBottom: 5 + MIN_ROOT_GAP / 2 };
    expect(oneBitConfidence(split.emptyTop, split, true)).toBe(1);
    expect(oneBitConfidence(split.markBottom, split, true)).toBe(1);
    expect(oneBitConfidence(5.2, split, true)).toBeLessThan(LOW_CONFIDENCE);
    expect(oneBitConfidence(4.8, split, true)).toBeLessThan(LOW_CONFIDENCE);
  });

  it('holds a mark no bigger than dust: a small blob, or little black in few specks', () => {
    expect(oneBitMarkIsSure(0.08, 9)).toBe(false);
    expect(oneBitMarkIsSure(0.3, 1)).toBe(false);
    expect(oneBitMarkIsSure(0.3, 5)).toBe(true);
    expect(oneBitMarkIsSure(0.8, 1)).toBe(true);
    const split = { threshold: 2, emptyTop: 0, markBottom: 4 };
    expect(oneBitConfidence(8, split, false)).toBeLessThan(LOW_CONFIDENCE);
  });
});

describe('faint 1-bit marks beside firm ones', () => {
  type Mark = { density: number };
  const mark = (density: number): Mark => ({ density });
  const density = (m: Mark) => m.density;

  it('holds a faint mark beside a firm one on a page of firm marks (it may be what a rubber left)', () => {
    const faint = mark(0.2);
    const questions = [[mark(0.9)], [mark(0.85)], [mark(0.95), faint], [mark(0.9)], [], [mark(0.88)]];
    expect([...unconfirmedFaintMarks(questions, density)]).toEqual([faint]);
  });

  it('reads it when the page shows the student marks faintly: faint marks alone on their questions', () => {
    const faint = mark(0.2);
    const questions = [[mark(0.9)], [mark(0.25)], [mark(0.95), faint], [mark(0.3)], [mark(0.22)], [mark(0.88)]];
    expect(unconfirmedFaintMarks(questions, density).size).toBe(0);
  });
});

describe('recognizePage on a 1-bit page of faint pencil', () => {
  it('reads a page whose every mark is faint pencil, kept as speckle by the threshold, without review', async () => {
    const fixture = sheetFixture(standardSpec());
    const layout = fixture.template.pages[0]!;
    const random = seededRandom(41);
    const marks: SheetMark[] = layout.objective.map((q) => ({
      questionNo: q.questionNo,
      label: q.options[Math.floor(random() * q.options.length)]!.label,
      style: 'faint',
    }));
    const sheet = await renderSyntheticSheet(fixture, { marks, seed: 41, degrade: { rotationDeg: 0.5, noise: 3, bilevel: 122 } });
    // The scanner's own 1-bit file (the generator stores its 1-bit scan as a grey JPEG).
    const grey = await decodeGrey(sheet.jpeg);
    const bits = Uint8Array.from(grey.data, (v) => (v < 128 ? 0 : 255));
    const png = await sharp(bits, { raw: { width: grey.width, height: grey.height, channels: 1 } })
      .png({ palette: true, colours: 2 })
      .toBuffer();
    const { reading } = await recognizePage(png, async () => fixture.template);
    for (const r of reading.objective) expect(r.marked, `q${r.questionNo}`).toEqual(sheet.expected.get(r.questionNo));
    const held = reading.objective.filter((r) => r.confidence < LOW_CONFIDENCE).length;
    expect(held).toBeLessThanOrEqual(1);
  });
});
