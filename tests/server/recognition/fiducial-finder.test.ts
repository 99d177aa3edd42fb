import { describe, expect, it } from 'vitest';
import { applyAffine } from '../../../server/services/recognition/affine-fit';
import { findFiducials } from '../../../server/services/recognition/fiducial-finder';
import { decodeGrey } from '../../../server/services/recognition/grey-image';
import { TURNED_CORNER, guessFrame, paperFrame } from '../../../server/services/recognition/sheet-frame';
import { layoutAnswerSheet } from '../../../src/shared/lib/answer-sheet-layout';
import { renderSyntheticSheet, sheetFixture, standardSpec, type Degradation } from '../../support/synthetic-sheets';

const fixture = sheetFixture(standardSpec());
const page = fixture.template.pages[0]!;

type Streak = { from: number; width: number; grey: number };

/**
 * The fiducials found on a rendered sheet; `streak` paints a scanner streak down the whole page, its
 * columns given from the centre of the top-left fiducial.
 */
async function found(degrade: Degradation, cover: ('tl' | 'tr' | 'bl' | 'br')[] = [], streak?: Streak) {
  const sheet = await renderSyntheticSheet(fixture, { seed: 3, degrade, cover });
  const img = await decodeGrey(sheet.jpeg);
  if (streak) {
    const tl = page.fiducials.find((f) => f.corner === 'tl')!;
    const x0 = Math.round(applyAffine(sheet.transform, tl.xMm, tl.yMm).x + streak.from);
    for (let y = 0; y < img.height; y += 1) img.data.fill(streak.grey, y * img.width + x0, y * img.width + x0 + streak.width);
  }
  return { sheet, fiducials: findFiducials(img, guessFrame(img.width, img.height)) };
}

/** Distance in pixels from each found fiducial to where the generator put the template's square. */
function errors({ sheet, fiducials }: Awaited<ReturnType<typeof found>>) {
  return fiducials.map((f) => {
    const templateCorner = sheet.upsideDown ? TURNED_CORNER[f.corner] : f.corner;
    const nominal = page.fiducials.find((g) => g.corner === templateCorner)!;
    const at = applyAffine(sheet.transform, nominal.xMm, nominal.yMm);
    return { corner: f.corner, cut: f.cut, px: Math.hypot(at.x - f.x, at.y - f.y) };
  });
}

describe('paperFrame and guessFrame', () => {
  it('match the fiducials and QR the layout gives every page of A4 and A3 sheets', () => {
    for (const paperSize of ['A4', 'A3'] as const) {
      const template = layoutAnswerSheet(standardSpec(1, paperSize));
      const frame = paperFrame(template.pageWidthMm, template.pageHeightMm);
      for (const p of template.pages) {
        expect(frame.fiducials).toEqual(p.fiducials);
        expect(frame.qr).toEqual(p.qr);
      }
      const [w, h] = paperSize === 'A4' ? [2480, 3507] : [4960, 3508];
      expect(guessFrame(w, h)).toEqual(frame);
    }
  });
});

describe('findFiducials', () => {
  it.each<[string, Degradation]>([
    ['a straight scan', {}],
    ['3 degrees and 3 % smaller', { rotationDeg: 3, scale: 0.97 }],
    ['-3 degrees, upside down', { rotationDeg: -3, upsideDown: true }],
    ['3 % larger, dark and noisy', { scale: 1.03, rotationDeg: 0.5, paper: 228, toner: 45, noise: 8, specks: 1500 }],
  ])('finds all four on %s to within half a pixel', async (_, degrade) => {
    const result = await found(degrade);
    expect(result.fiducials.map((f) => f.corner)).toEqual(['tl', 'tr', 'bl', 'br']);
    for (const e of errors(result)) expect(e.px, e.corner).toBeLessThan(0.5);
    for (const f of result.fiducials) expect(f.sidePx).toBeCloseTo(8 * (300 / 25.4) * (degrade.scale ?? 1), -1);
  });

  it('infers the centre of squares the scan edge cuts off, to within a few pixels', async () => {
    // Enlarged and skewed: all four squares reach past the page edge.
    const result = await found({ rotationDeg: -2.9, scale: 1.025, upsideDown: true });
    const e = errors(result);
    expect(e).toHaveLength(4);
    expect(e.filter((x) => x.cut).length).toBeGreaterThanOrEqual(2);
    for (const x of e) expect(x.px, x.corner).toBeLessThan(x.cut ? 4 : 0.5);
  });

  it('finds all four on a scan of low contrast (toner 120 on paper 219), where no column is a streak', async () => {
    const result = await found({ rotationDeg: 0.3, paper: 219, toner: 120 });
    const e = errors(result);
    expect(e.map((x) => x.corner)).toEqual(['tl', 'tr', 'bl', 'br']);
    for (const x of e) expect(x.px, x.corner).toBeLessThan(1);
  });

  // The square's side is 94.5 px.
  it.each<[string, Streak]>([
    ['through its middle', { from: -6, width: 12, grey: 60 }],
    ['along its right side', { from: 37, width: 25, grey: 40 }],
    ['along its left side, just touching it', { from: -66, width: 20, grey: 90 }],
    ['over a quarter of it', { from: 24, width: 8, grey: 20 }],
    ['a few pixels beside it', { from: 55, width: 10, grey: 50 }],
  ])('finds a square a dark scanner streak runs down %s, to within a pixel', async (_, streak) => {
    const result = await found({ rotationDeg: 0.4 }, [], streak);
    const e = errors(result);
    expect(e.map((x) => x.corner)).toEqual(['tl', 'tr', 'bl', 'br']);
    for (const x of e) expect(x.px, x.corner).toBeLessThan(1);
  });

  it('leaves out a corner whose square is covered', async () => {
    const result = await found({ rotationDeg: 1 }, ['br']);
    expect(result.fiducials.map((f) => f.corner)).toEqual(['tl', 'tr', 'bl']);
  });

  it('takes no QR finder pattern or printed text for a fiducial', async () => {
    // The QR sits in the top-right search window; with the square there covered, nothing else qualifies.
    const result = await found({}, ['tr']);
    expect(result.fiducials.map((f) => f.corner)).toEqual(['tl', 'bl', 'br']);
  });
});
