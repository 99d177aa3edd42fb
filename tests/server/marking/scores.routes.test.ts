import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScoreTable, scoreTableSchema } from '../../../src/shared/contract/marking';
import { failure } from '../accounts-helper';
import type { createOtherSchool } from '../papers/papers-helper';
import {
  type Caller,
  createHomework,
  data,
  FakeEngine,
  type MarkingApp,
  markingSchool,
  markNext,
  scanAndRecognise,
  sheetOf,
  type TestHomework,
} from './marking-helper';

describe('score endpoints', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let hw: TestHomework;
  const app = () => handle.app;

  beforeAll(async () => {
    ({ handle, teacher, other } = await markingSchool(engine));
    hw = await createHomework(app(), teacher.orgId);
    const [first, second] = hw.students;
    await scanAndRecognise(app(), engine, teacher.token, hw.id, [
      sheetOf(hw.id, first!.code, { 1: ['B'], 2: ['A', 'C'], 3: ['T'] }),
      sheetOf(hw.id, second!.code, { 1: ['A'], 2: ['C'], 3: ['F'] }),
    ]);
    // The owner marks the first student's manual answers (the owner marks when nobody is assigned).
    await markNext(teacher, hw.id, 4, 4);
    await markNext(teacher, hw.id, 5, 7.5);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('lists every student of the homework with a score per question, answers as read, total and completeness', async () => {
    const table: ScoreTable = scoreTableSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` })),
    );
    expect(table.questions).toEqual([
      { questionNo: 1, type: 'single', score: 3 },
      { questionNo: 2, type: 'multiple', score: 4 },
      { questionNo: 3, type: 'judge', score: 2 },
      { questionNo: 4, type: 'blank', score: 4 },
      { questionNo: 5, type: 'subjective', score: 10 },
    ]);
    expect(table.students).toHaveLength(hw.students.length);
    const [marked, partly, absent] = table.students;
    // Which student's answers the owner marked first depends on the order of answers; one got 4 and 7.5.
    const manual = [marked!, partly!].map((s) => [s.scores['4'], s.scores['5']]);
    expect(manual).toEqual(
      expect.arrayContaining([
        [4, 7.5],
        [null, null],
      ]),
    );
    const full = [marked!, partly!].find((s) => s.scores['4'] === 4)!;
    const half = [marked!, partly!].find((s) => s.scores['4'] === null)!;
    expect(full.complete).toBe(true);
    expect(half.complete).toBe(false);
    expect(table.students.find((s) => s.studentId === hw.students[0]!.id)).toMatchObject({
      answers: { 1: ['B'], 2: ['A', 'C'], 3: ['T'] },
    });
    const second = table.students.find((s) => s.studentId === hw.students[1]!.id)!;
    expect([second.scores['1'], second.scores['2'], second.scores['3']]).toEqual([0, 2, 0]);
    // Never scanned: no total (not 0) and the status says so.
    expect(absent).toMatchObject({ total: null, complete: false, status: 'unscanned', answers: {} });
    expect(full.status).toBe('complete');
    expect(half.status).toBe('marking');
    expect(Object.values(absent!.scores).every((score) => score === null)).toBe(true);
    expect(full.total).toBe((full.studentId === hw.students[0]!.id ? 3 + 4 + 2 : 0 + 2 + 0) + 4 + 7.5);
  });

  it('exports the same table as 成绩表 in an Excel file', async () => {
    const response = await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores.xlsx` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(response.headers['content-disposition'])).toContain(encodeURIComponent('-成绩表.xlsx'));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('成绩表')!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '学号',
      '姓名',
      '班级',
      '第1题',
      '第2题',
      '第3题',
      '第4题',
      '第5题',
      '总分',
      '状态',
    ]);
    const table = data<ScoreTable>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` }));
    expect(sheet.rowCount).toBe(1 + table.students.length);
    table.students.forEach((student, i) => {
      const row = sheet.getRow(i + 2).values as unknown[];
      expect(row.slice(1, 4)).toEqual([student.code, student.name, student.className]);
      expect(row.slice(4, 9)).toEqual([1, 2, 3, 4, 5].map((no) => student.scores[String(no)] ?? undefined));
      // 总分 only for 已阅完: a 阅卷中 student's partial sum stays out of the column (its marks stay in theirs).
      expect(row[9]).toBe(student.status === 'complete' ? (student.total ?? undefined) : undefined);
      for (let column = 4; column <= 9; column += 1) {
        const cell = sheet.getRow(i + 2).getCell(column);
        if (cell.value !== null) expect(cell.numFmt).toBe(Number.isInteger(cell.value) ? '0' : '0.##');
      }
      expect(row[10]).toBe({ unscanned: '未扫描', absent: '缺考', marking: '阅卷中', complete: '已阅完' }[student.status]);
    });
    // The fixture has a 阅卷中 student with a partial total in the API and a mark given: empty 总分, marks kept.
    const markingIndex = table.students.findIndex((s) => s.status === 'marking');
    expect(table.students[markingIndex]!.total).not.toBeNull();
    const markingRow = sheet.getRow(markingIndex + 2);
    expect(markingRow.getCell(9).value).toBeNull();
    expect((markingRow.values as unknown[]).slice(4, 9).some((v) => typeof v === 'number')).toBe(true);
    // A mark is a number with a number format (not the text "7.5").
    const fractional = sheet.getColumn(8).values.find((v) => typeof v === 'number' && !Number.isInteger(v));
    expect(typeof fractional).toBe('number');
  });

  it("answers 404 for another school's homework", async () => {
    expect(failure(await other.call({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` })).status).toBe(404);
    expect(failure(await other.call({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores.xlsx` })).status).toBe(404);
    expect(failure(await teacher({ method: 'GET', url: '/api/marking/homework/0/scores' })).status).toBe(400);
  });
});
