import { describe, expect, it } from 'vitest';
import { recognizePage } from '../../../server/services/recognition/page-recognizer';
import { LOW_CONFIDENCE, PHOTO_REJECTION_MESSAGES, pageReadingSchema } from '../../../src/shared/contract/recognition';
import { seededRandom } from '../../../src/shared/lib/simulated-scan';
import { randomMarks, renderSyntheticSheet, sheetFixture, standardSpec, type PhotoView } from '../../support/synthetic-sheets';

const fixture = sheetFixture(standardSpec(4101));
const page = fixture.template.pages[0]!;
const resolve = async () => fixture.template;
const flat: PhotoView = { tiltDeg: 0, tiltAzimuthDeg: 0, rollDeg: 0, fill: 0.85, shadow: 0, gradient: 0, curlMm: 0, blur: 0.8 };

async function photo(seed: number, view: Partial<PhotoView>) {
  const sheet = await renderSyntheticSheet(fixture, {
    seed,
    student: { name: '王五', code: '2026010301' },
    marks: randomMarks(page, seededRandom(seed)),
    degrade: { photo: { ...flat, ...view } },
  });
  const { reading } = await recognizePage(sheet.jpeg, resolve);
  return { sheet, reading: pageReadingSchema.parse(reading) };
}

describe('recognizePage on phone photos', () => {
  it('reads a photo tilted by 18 degrees, with a shadow across it and a curled edge, like a scan', async () => {
    const { sheet, reading } = await photo(61, {
      tiltDeg: 18,
      tiltAzimuthDeg: 40,
      rollDeg: 5,
      shadow: 0.4,
      gradient: 0.2,
      curlMm: 8,
    });
    expect(reading.photo).toMatchObject({ rejected: null });
    expect(reading.qr).toMatchObject({ homeworkId: 4101, studentCode: '2026010301' });
    expect(reading.objective).toHaveLength(page.objective.length);
    for (const o of reading.objective) {
      const right = o.marked.join('') === sheet.expected.get(o.questionNo)!.join('');
      // A wrong reading must never be scored unseen.
      if (!right) expect(o.confidence).toBeLessThan(0.6);
    }
    const right = reading.objective.filter((o) => o.marked.join('') === sheet.expected.get(o.questionNo)!.join(''));
    expect(right.length).toBeGreaterThanOrEqual(page.objective.length - 1);
  }, 60_000);

  it('reads a curled, shadowed, slightly blurred photo with every question right and none held back', async () => {
    // The curl lifts the bottom fiducials, so the homography misplaces the bubbles by up to a
    // millimetre or more; each question is placed on its own printed outlines.
    const { sheet, reading } = await photo(65, {
      tiltDeg: 18,
      tiltAzimuthDeg: 200,
      rollDeg: -9,
      fill: 0.76,
      shadow: 0.6,
      gradient: 0.4,
      curlMm: 14,
      blur: 2,
    });
    expect(reading.photo).toMatchObject({ rejected: null });
    for (const o of reading.objective) {
      expect(o.marked, `question ${o.questionNo}`).toEqual(sheet.expected.get(o.questionNo));
      expect(o.confidence, `question ${o.questionNo}`).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    }
    expect(reading.problems.filter((p) => p.questionNo !== undefined)).toEqual([]);
  }, 60_000);

  it('reads a nearly head-on photo through its homography, bubble for bubble', async () => {
    const { sheet, reading } = await photo(66, { tiltDeg: 4, tiltAzimuthDeg: 120, fill: 0.9 });
    expect(reading.photo).toMatchObject({ rejected: null });
    for (const o of reading.objective) expect(o.marked.join('')).toBe(sheet.expected.get(o.questionNo)!.join(''));
  }, 60_000);

  it('reads a photo taken with the phone held sideways (the page a quarter turn round)', async () => {
    const { sheet, reading } = await photo(62, { tiltDeg: 8, rollDeg: 90, width: 4000, height: 3000 });
    expect(reading.photo?.rejected).toBeNull();
    for (const o of reading.objective) expect(o.marked, `question ${o.questionNo}`).toEqual(sheet.expected.get(o.questionNo));
  }, 60_000);

  it('rejects a blurred photo at once, saying why', async () => {
    const { reading } = await photo(63, { tiltDeg: 6, blur: 7 });
    expect(reading.photo?.rejected).toBe('blurred');
    expect(reading.transform).toBeNull();
    expect(reading.objective).toEqual([]);
    expect(reading.problems).toContainEqual(expect.objectContaining({ kind: 'fiducialsNotFound' }));
    expect(PHOTO_REJECTION_MESSAGES.blurred).toMatch(/模糊/);
  }, 60_000);

  it('rejects a photo with a corner of the sheet cut off', async () => {
    const { reading } = await photo(64, { fill: 0.95, offset: 0.12 });
    expect(reading.photo?.rejected).toBe('cutOff');
    expect(reading.objective).toEqual([]);
    expect(PHOTO_REJECTION_MESSAGES.cutOff).toMatch(/定位/);
  }, 60_000);
});
