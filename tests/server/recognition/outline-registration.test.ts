import { describe, expect, it } from 'vitest';
import type { ObjectiveQuestionLayout } from '../../../src/shared/contract/answer-sheet';
import { MAX_SHIFT_MM, registerQuestion, registeredPlacement } from '../../../server/services/recognition/outline-registration';
import type { GreyImage } from '../../../server/services/recognition/grey-image';

const PX_PER_MM = 2480 / 210;
const t = { a: PX_PER_MM, b: 0, c: 0, d: PX_PER_MM, e: 0, f: 0 };

function question(questionNo: number, yMm: number): ObjectiveQuestionLayout {
  return {
    questionNo,
    type: 'single',
    options: ['A', 'B', 'C', 'D'].map((label, i) => ({ label, xMm: 20 + 7.5 * i, yMm, wMm: 5, hMm: 3.5 })),
  };
}

/** A page of 60 x 40 mm with the questions' outlines (0.3 mm strokes) printed `shift` mm away; `filled` bubbles solid. */
function printed(questions: ObjectiveQuestionLayout[], shift: { dxMm: number; dyMm: number }, filled: string[] = [], noise = 0) {
  const width = Math.round(60 * PX_PER_MM);
  const height = Math.round(40 * PX_PER_MM);
  const data = new Uint8Array(width * height).fill(240);
  let state = 12345;
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const xMm = (x + 0.5) / PX_PER_MM - shift.dxMm;
      const yMm = (y + 0.5) / PX_PER_MM - shift.dyMm;
      for (const q of questions)
        for (const b of q.options) {
          const r = Math.hypot((xMm - b.xMm - b.wMm / 2) / (b.wMm / 2), (yMm - b.yMm - b.hMm / 2) / (b.hMm / 2));
          const onOutline = r <= 1 && r >= 1 - 0.3 / (b.hMm / 2);
          if (onOutline || (r < 1 && filled.includes(`${q.questionNo}${b.label}`))) data[y * width + x] = 40;
        }
      state = (state * 1103515245 + 12345) >>> 0;
      data[y * width + x] = Math.max(0, Math.min(255, data[y * width + x]! + ((state >>> 16) / 65536 - 0.5) * noise));
    }
  return { data, width, height } satisfies GreyImage;
}

describe('placing a question on its printed outlines', () => {
  it('finds how far a question was printed away from its placement (a curled page), a filled bubble or not', () => {
    const q = question(1, 10);
    const img = printed([q], { dxMm: 1.2, dyMm: -0.4 }, ['1B']);
    const shift = registerQuestion(img, t, q);
    expect(shift.dxMm).toBeCloseTo(1.2, 1);
    expect(shift.dyMm).toBeCloseTo(-0.4, 1);
  });

  it('leaves a question where it is when it is placed right, even on a noisy photo', () => {
    const q = question(1, 10);
    expect(registerQuestion(printed([q], { dxMm: 0, dyMm: 0 }, [], 30), t, q)).toEqual({ dxMm: 0, dyMm: 0 });
  });

  it('never moves a question onto the next row (rows 6 mm apart; the search reaches 1.5 mm)', () => {
    const rows = [question(1, 10), question(2, 16)];
    // The page printed 6 mm lower: row 1 is where row 2 is placed. Row 2 finds no outline of its own
    // within reach, and does not jump to row 1's.
    const img = printed(rows, { dxMm: 0, dyMm: 6 - MAX_SHIFT_MM - 1 });
    const shift = registerQuestion(img, t, rows[1]!);
    expect(Math.abs(shift.dyMm)).toBeLessThanOrEqual(MAX_SHIFT_MM);
  });

  it('moves each bubble of a question by its own question shift, and nothing else', () => {
    const rows = [question(1, 10), question(2, 20)];
    const img = printed(rows, { dxMm: 0.8, dyMm: 0 });
    const { place, shifts } = registeredPlacement(img, t, rows);
    expect(shifts.get(1)!.dxMm).toBeCloseTo(0.8, 1);
    const b = rows[0]!.options[0]!;
    const moved = place(b.xMm + b.wMm / 2, b.yMm + b.hMm / 2);
    expect(moved.e).toBeCloseTo(0.8 * PX_PER_MM, 0);
    expect(place(0, 0)).toBe(t);
  });
});
