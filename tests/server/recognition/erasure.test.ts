import { describe, expect, it } from 'vitest';
import {
  greyMarkCap,
  pageFills,
  pageModel,
  readObjective,
  rubbedGreyConfidence,
} from '../../../server/services/recognition/bubble-reader';
import { decodeGrey } from '../../../server/services/recognition/grey-image';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import {
  renderSyntheticSheet,
  sheetFixture,
  standardSpec,
  type Degradation,
  type SheetMark,
} from '../../support/synthetic-sheets';

/** A page's bubbles as measured: `empty` empty ones near zero, then the given ones. */
function page(empty: number, others: { ink: number; fill: number; specks?: number }[]) {
  const random = seededRandom(5);
  const bubbles = Array.from({ length: empty }, () => ({ ink: random() * 0.004, fill: 0.05 + random() * 0.03, specks: 0 }));
  return [...bubbles, ...others.map((b) => ({ specks: 0, ...b }))].map((b) => ({ ...b, line: false }));
}
const fills = (n: number, fill = 0.8) => Array.from({ length: n }, (_, i) => ({ ink: 1, fill: fill + (i % 5) * 0.01 }));

describe('three populations on a page: empty, marked and what a rubber left', () => {
  it('on a page of firm fills, reads a smooth grey well under them as rubbed out, alone or beside a mark', () => {
    const bubbles = page(60, [...fills(20), { ink: 0, fill: 0.41 }, { ink: 0, fill: 0.3 }, { ink: 0, fill: 0.22 }]);
    const model = pageModel(bubbles);
    const firm = pageFills(bubbles, model);
    expect(firm?.erasureCeiling).toBeGreaterThan(0.35);
    // Grey 150 on white paper rises about 0.35 above the empty level; 195 about 0.18.
    for (const grey of bubbles.slice(60 + 20)) {
      expect(rubbedGreyConfidence(grey, model, firm), `fill ${grey.fill}`).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    }
    // Close under the ceiling it is doubtful; at it and above (a careful student's light pencil) no erasure.
    const level = model.emptyFill.level;
    const ceiling = firm!.erasureCeiling!;
    expect(rubbedGreyConfidence({ ink: 0, fill: level + ceiling - 0.005, specks: 0, line: false }, model, firm)).toBeLessThan(
      LOW_CONFIDENCE,
    );
    expect(rubbedGreyConfidence({ ink: 0, fill: level + ceiling, specks: 0, line: false }, model, firm)).toBeNull();
    expect(rubbedGreyConfidence({ ink: 0, fill: level + 0.45, specks: 0, line: false }, model, firm)).toBeNull();
    // Pencil in it (ink, speckle) or a line through it: never an erasure.
    expect(rubbedGreyConfidence({ ink: 0.05, fill: 0.41, specks: 0, line: false }, model, firm)).toBeNull();
    expect(rubbedGreyConfidence({ ink: 0, fill: 0.41, specks: 12, line: false }, model, firm)).toBeNull();
    expect(rubbedGreyConfidence({ ink: 0, fill: 0.41, specks: 0, line: true }, model, firm)).toBeNull();
    // An empty bubble is no erasure either: it reads empty on its own.
    expect(rubbedGreyConfidence(bubbles[0]!, model, firm)).toBeNull();
  });

  it('never reads grey as rubbed out on a page where the student marks lightly too', () => {
    const greys = [
      { ink: 0, fill: 0.41 },
      { ink: 0, fill: 0.3 },
    ];
    const light: [string, { ink: number; fill: number; specks?: number }][] = [
      ['a light pencil mark with a little ink', { ink: 0.04, fill: 0.45, specks: 20 }],
      ['a light pencil mark that kept no ink (a blurred scan)', { ink: 0, fill: 0.46 }],
      ['a tick', { ink: 0.25, fill: 0.3 }],
      ['a partial fill', { ink: 0.55, fill: 0.5 }],
      ['a light fill with ink all over', { ink: 0.9, fill: 0.47 }],
      ['speckle of faint pencil on a 1-bit scan', { ink: 0.003, fill: 0.1, specks: 14 }],
      ['a grey with pencil strokes left in it', { ink: 0.03, fill: 0.3 }],
    ];
    for (const [name, other] of light) {
      const bubbles = page(60, [...fills(20), ...greys, other]);
      const model = pageModel(bubbles);
      const found = pageFills(bubbles, model);
      expect(found?.erasureCeiling, name).toBeNull();
      for (const grey of greys) expect(rubbedGreyConfidence({ ...grey, specks: 0, line: false }, model, found), name).toBeNull();
    }
    // Too few fills to say how the student marks: nothing to go on.
    const few = page(60, [...fills(4), ...greys]);
    expect(pageFills(few, pageModel(few))).toBeNull();
    // A page of ticks: its marks are no fills.
    const ticks = page(60, [...Array.from({ length: 20 }, () => ({ ink: 0.3, fill: 0.3 })), ...greys]);
    expect(pageFills(ticks, pageModel(ticks))).toBeNull();
  });

  it('puts the ceiling at a share of the page lighter fills, never above where light pencil begins', () => {
    const dark = page(60, [...fills(20, 0.9), { ink: 0, fill: 0.3 }]);
    expect(pageFills(dark, pageModel(dark))?.erasureCeiling).toBeCloseTo(0.37, 5);
    // A student whose fills are lighter (0.6): the grey a rubber leaves of them is lighter too.
    const lighter = page(60, [...fills(20, 0.6), { ink: 0, fill: 0.3 }]);
    const model = pageModel(lighter);
    const ceiling = pageFills(lighter, model)!.erasureCeiling!;
    expect(ceiling).toBeLessThan(0.33);
    expect(
      rubbedGreyConfidence(
        { ink: 0, fill: model.emptyFill.level + 0.34, specks: 0, line: false },
        model,
        pageFills(lighter, model),
      ),
    ).toBeNull();
  });

  it('never trusts a smooth grey as a mark when the page has fills far darker, however light its other marks', () => {
    // Light pencil marks and rubbed-out ones pull the page's marked level down: a grey 0.24 above the
    // empty level sits high between it and the empty level, yet it is what a rubber leaves.
    const bubbles = page(60, [
      ...fills(10),
      ...Array.from({ length: 8 }, () => ({ ink: 0.04, fill: 0.45, specks: 20 })),
      ...Array.from({ length: 8 }, () => ({ ink: 0, fill: 0.33 })),
    ]);
    const model = pageModel(bubbles);
    const found = pageFills(bubbles, model);
    expect(found?.erasureCeiling).toBeNull();
    const grey = { ink: 0, fill: model.emptyFill.level + 0.24, specks: 0, line: false };
    expect(greyMarkCap(grey, model, found)).toBeLessThan(LOW_CONFIDENCE);
    // Light pencil above what a rubber leaves, or a grey with pencil in it, is not capped here.
    expect(greyMarkCap({ ...grey, fill: model.emptyFill.level + 0.38 }, model, found)).toBe(1);
    expect(greyMarkCap({ ...grey, ink: 0.3 }, model, found)).toBe(1);
    // Specks of ink (a scanner's noise over grey 150 makes them as light pencil does) do not make it surer.
    expect(greyMarkCap({ ...grey, specks: 20, ink: 0.04 }, model, found)).toBeLessThan(LOW_CONFIDENCE);
    // A page of light marks alone (no fills) keeps its own scale: consistent light marks read surely.
    const allLight = page(
      60,
      Array.from({ length: 20 }, () => ({ ink: 0, fill: 0.3 })),
    );
    expect(greyMarkCap({ ...grey, fill: 0.3 }, pageModel(allLight), pageFills(allLight, pageModel(allLight)))).toBe(1);
  });
});

/** Generated pages: fills and half-erased marks, and pages that mix light pencil in. */
describe('readObjective on generated pages with half-erased marks', () => {
  const fixture = sheetFixture(standardSpec());
  const layout = fixture.template.pages[0]!;
  /** Questions the server would score without a person seeing them, that are read wrong. */
  const wrongUnseen = async (marks: SheetMark[], seed: number, degrade: Degradation) => {
    const sheet = await renderSyntheticSheet(fixture, { marks, seed, degrade: { rotationDeg: 0.6, ...degrade } });
    const read = readObjective(await decodeGrey(sheet.jpeg), sheet.transform, layout.objective, degrade.toner ?? 22);
    const scored = read.readings.filter((r) => !read.problems.some((p) => p.questionNo === r.questionNo));
    const wrong = scored.filter((r) => r.marked.join('') !== sheet.expected.get(r.questionNo)!.join(''));
    return { read, scored, wrong, sheet };
  };
  const degradations: [string, Degradation][] = [
    ['clean', { noise: 3 }],
    ['blurred', { noise: 4, blur: 1.1, jpegQuality: 80 }],
    ['JPEG 70 on grey paper', { noise: 5, jpegQuality: 70, paper: 230, toner: 40 }],
    ['noisy', { noise: 8, paper: 236, toner: 30, jpegQuality: 85 }],
  ];

  it('reads fills with rubbed-out marks beside them or alone without review, when every other mark is a fill', async () => {
    // Grey 150 (the darkest a rubber leaves, about 0.35 above the empty level) to 205, smooth.
    const greys = [150, 152, 160, 175, 190, 205];
    for (const [name, degrade] of degradations) {
      const random = seededRandom(name.length);
      const marks: SheetMark[] = layout.objective.flatMap((q, i): SheetMark[] => {
        const [first, second, third] = [...q.options.map((o) => o.label)].sort(() => random() - 0.5);
        const grey = greys[i % greys.length]!;
        // Every third question: only the rubbed-out mark (the answer taken back). Multiple choice: two fills.
        if (i % 3 === 2) return [{ questionNo: q.questionNo, label: first!, style: 'halfErased', grey }];
        return [
          { questionNo: q.questionNo, label: first!, style: 'solid' },
          ...(q.type === 'multiple' ? [{ questionNo: q.questionNo, label: third!, style: 'solid' as const }] : []),
          { questionNo: q.questionNo, label: second!, style: 'halfErased', grey },
        ];
      });
      const { read, scored, wrong } = await wrongUnseen(marks, 60 + name.length, degrade);
      expect(wrong, name).toEqual([]);
      // On a noisy scan (sigma 8) the noise puts specks of ink into grey 150-160 as into light pencil:
      // those greys stay in review.
      if (name === 'noisy') continue;
      // On a multiple-choice question a grey beside the fills may be a light second answer (a second
      // mark is legal there and no double-mark rule catches it): with light strokes in it, it stays in
      // review. Every other question reads without review.
      const multiple = new Set(layout.objective.filter((q) => q.type === 'multiple').map((q) => q.questionNo));
      expect(
        read.problems.filter((p) => !multiple.has(p.questionNo!)),
        name,
      ).toEqual([]);
      expect(scored.length, name).toBeGreaterThanOrEqual(layout.objective.length - multiple.size);
    }
  });

  it('never reads a real light mark as rubbed out, nor scores a half-erased mark as an answer unseen', async () => {
    // Light pencil (faint: grey 110-145) and fills, with half-erased marks on the same page: grey 150
    // to 210, some of the lighter ones with streaks of the pencil strokes the rubber missed (still
    // lighter than grey 150: darker streaks are light pencil to any reader); beside light marks, beside
    // fills, alone; on single, multiple-choice and judge questions. A second light mark on a
    // single-choice question too.
    const greys = [150, 155, 165, 180, 195, 210, undefined];
    let pages = 0;
    for (const [name, degrade] of [...degradations, ['1-bit', { bilevel: 142, blur: 0.6 }] as [string, Degradation]]) {
      for (const seed of [71, 72]) {
        const random = seededRandom(seed * 31 + name.length);
        const marks: SheetMark[] = layout.objective.flatMap((q, i): SheetMark[] => {
          const [first, second, third] = [...q.options.map((o) => o.label)].sort(() => random() - 0.5);
          const style = random() < 0.5 ? 'faint' : 'solid';
          const grey = greys[(i + seed) % greys.length];
          const rubbed: SheetMark = {
            questionNo: q.questionNo,
            label: second!,
            style: 'halfErased',
            grey,
            strokes: grey !== undefined && grey >= 165 && random() < 0.5,
          };
          const kind = (i + seed) % 5;
          if (kind === 0) return [rubbed];
          if (kind === 1) return [{ questionNo: q.questionNo, label: first!, style }];
          if (kind === 2) {
            return [
              { questionNo: q.questionNo, label: first!, style: 'solid' },
              { questionNo: q.questionNo, label: second!, style: 'faint' },
            ];
          }
          return [
            { questionNo: q.questionNo, label: first!, style },
            ...(q.type === 'multiple' ? [{ questionNo: q.questionNo, label: third!, style: 'faint' as const }] : []),
            rubbed,
          ];
        });
        const { read, wrong, sheet } = await wrongUnseen(marks, seed, degrade);
        // A real mark (light or firm) is never read away unseen.
        for (const r of wrong) {
          const lost = sheet.expected.get(r.questionNo)!.filter((label) => !r.marked.includes(label));
          expect(lost, `${name} seed ${seed} question ${r.questionNo} read ${r.marked.join('')}`).toEqual([]);
        }
        // Nor is rubbed-out grey scored as an answer, except on a 1-bit scan: the scanner's threshold turns
        // grey 150-165 into the same speckle as light pencil, and no reader can tell them apart there.
        if (degrade.bilevel === undefined) {
          expect(
            wrong.map((r) => `question ${r.questionNo} read ${r.marked.join('')}`),
            `${name} seed ${seed}`,
          ).toEqual([]);
        }
        expect(read.readings.length).toBe(layout.objective.length);
        pages += 1;
      }
    }
    expect(pages).toBe(10);
  });
});
