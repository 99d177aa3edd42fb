/**
 * Scan to scores through the real recognition engine (worker threads): synthetic scans of a homework's
 * real answer sheet are uploaded, recognised, scored from the key, and what the engine cannot decide
 * goes to review.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnswerSheetSpec,
  answerSheetSpecSchema,
  type AnswerSheetTemplate,
  answerSheetTemplateSchema,
} from '../../../src/shared/contract/answer-sheet';
import { type ReviewItem, type ScoreTable } from '../../../src/shared/contract/marking';
import { scanBatchSchema } from '../../../src/shared/contract/scan-upload';
import { renderSyntheticSheet, type SheetFixture, type SyntheticSheetOptions } from '../../support/synthetic-sheets';
import { createBatch, uploadPage } from '../scan/scan-helper';
import {
  type Caller,
  callerFor,
  createHomework,
  createMarkingApp,
  data,
  type MarkingApp,
  type TestHomework,
} from './marking-helper';

describe('recognition through the real engine', () => {
  let handle: MarkingApp;
  let teacher: Caller;
  let hw: TestHomework;
  let fixture: SheetFixture;
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createMarkingApp();
    teacher = await callerFor(app(), 'teacher');
    hw = await createHomework(app(), teacher.orgId);
    const spec: AnswerSheetSpec = answerSheetSpecSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/spec` })),
    );
    const template: AnswerSheetTemplate = answerSheetTemplateSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet/template` })),
    );
    fixture = { spec, template, bases: new Map() };
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function scan(sheets: SyntheticSheetOptions[]) {
    const batch = scanBatchSchema.parse(
      (await createBatch(app(), teacher.token, { homeworkId: hw.id, stationName: '真实识别' })).json().data,
    );
    for (const [i, options] of sheets.entries()) {
      const sheet = await renderSyntheticSheet(fixture, { seed: 100 + i, ...options });
      const response = await uploadPage(
        app(),
        teacher.token,
        { batchId: batch.id, imageId: randomUUID(), sequence: i + 1, width: sheet.width, height: sheet.height },
        sheet.jpeg,
      );
      expect(response.statusCode, response.body).toBe(200);
    }
    await app().marking.queue.idle();
  }

  it('reads per-student sheets into scores, and asks who wrote a generic sheet', async () => {
    const [first, second, third] = hw.students;
    await scan([
      {
        student: first,
        marks: [
          { questionNo: 1, label: 'B', style: 'solid' },
          { questionNo: 2, label: 'A', style: 'solid' },
          { questionNo: 2, label: 'C', style: 'solid' },
          { questionNo: 3, label: 'T', style: 'solid' },
        ],
        writeIn: [4, 5],
        degrade: { rotationDeg: 1.2, scale: 1.01, noise: 4 },
      },
      {
        student: second,
        marks: [
          { questionNo: 1, label: 'A', style: 'solid' },
          { questionNo: 2, label: 'A', style: 'solid' },
          { questionNo: 3, label: 'F', style: 'solid' },
        ],
        writeIn: [5],
        degrade: { upsideDown: true },
      },
      { marks: [{ questionNo: 1, label: 'B', style: 'solid' }] },
    ]);

    const table = data<ScoreTable>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` }));
    const row = (id: number) => table.students.find((s) => s.studentId === id)!;
    expect(row(first!.id).answers).toEqual({ 1: ['B'], 2: ['A', 'C'], 3: ['T'] });
    expect(row(first!.id).scores).toMatchObject({ 1: 3, 2: 4, 3: 2, 4: null, 5: null });
    expect(row(second!.id).scores).toMatchObject({ 1: 0, 2: 2, 3: 0 });

    const review = data<ReviewItem[]>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/review` }));
    expect(review.map((item) => item.kind)).toEqual(['unknownStudent']);
    data(
      await teacher({
        method: 'POST',
        url: `/api/marking/review/${review[0]!.id}/resolve`,
        payload: { action: 'assignStudent', studentId: third!.id },
      }),
    );
    const after = data<ScoreTable>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` }));
    expect(after.students.find((s) => s.studentId === third!.id)!.scores['1']).toBe(3);

    // The owner marks the written answer from its cut-out image.
    const task = data<{ taskId: number; answerId: number }>(
      await teacher({ method: 'POST', url: `/api/marking/homework/${hw.id}/questions/5/next`, payload: {} }),
    );
    const image = await teacher({ method: 'GET', url: `/api/marking/answers/${task.answerId}/image` });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(image.rawPayload.length).toBeGreaterThan(1000);
  }, 180_000);
});
