/** Students per class: add, edit, move between classes, archive, export (and import the export back). */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rosterImportResultSchema, studentListSchema, studentSchema } from '../../../src/shared/contract/papers';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool, multipartFile } from './papers-helper';

// The demo teacher teaches maths in the 2026级 classes (4..7) and is 班主任 of class 4; class 8 is 初二(1)班.
const CLASS_1 = 4;
const CLASS_2 = 5;
const OTHER_GRADE = 8;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('managing the students of a class', () => {
  const app = useTestApp();
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    other = await createOtherSchool(app());
  });

  const list = async (classId: number, archived = false) =>
    studentListSchema.parse(
      (await teacher({ method: 'GET', url: `/api/classes/${classId}/students${archived ? '?archived=true' : ''}` })).json().data,
    );
  const add = (classId: number, payload: object, caller: Caller | typeof other.call = teacher) =>
    caller({ method: 'POST', url: `/api/classes/${classId}/students`, payload });

  it('adds a student, and refuses a code another student of the school has (409, naming them)', async () => {
    const added = studentSchema.parse((await add(CLASS_1, { name: '新同学', code: '2026019901' })).json().data);
    expect(added).toMatchObject({ classId: CLASS_1, name: '新同学', code: '2026019901', archived: false });
    expect((await list(CLASS_1)).map((s) => s.code)).toContain('2026019901');
    const taken = failure(await add(CLASS_2, { name: '重名', code: '2026010101' }));
    expect(taken.status).toBe(409);
    expect(taken.msg).toMatch(/^学号 2026010101 已被初一\(1\)班的.+使用$/);
    expect(failure(await add(CLASS_1, { name: '', code: '2026019902' })).status).toBe(400);
    expect(failure(await add(CLASS_1, { name: '短号', code: '12' })).msg).toContain('学号必须是 4 到 20 位数字');
    expect(failure(await add(CLASS_1, { name: '别校', code: '2026019903' }, other.call)).status).toBe(404);
    // A class the teacher neither teaches nor runs.
    expect(failure(await add(OTHER_GRADE, { name: '越权', code: '2026019904' })).status).toBe(403);
  });

  it('edits a student and moves them to another class they teach, never to one they do not', async () => {
    const student = studentSchema.parse((await add(CLASS_1, { name: '转班生', code: '2026019911' })).json().data);
    const url = `/api/students/${student.id}`;
    const moved = studentSchema.parse(
      (await teacher({ method: 'PUT', url, payload: { name: '转班生甲', code: '2026019912', classId: CLASS_2 } })).json().data,
    );
    expect(moved).toMatchObject({ classId: CLASS_2, name: '转班生甲', code: '2026019912' });
    expect((await list(CLASS_1)).some((s) => s.id === student.id)).toBe(false);
    expect((await list(CLASS_2)).some((s) => s.id === student.id)).toBe(true);
    const refused = failure(
      await teacher({ method: 'PUT', url, payload: { name: '转班生甲', code: '2026019912', classId: OTHER_GRADE } }),
    );
    expect(refused.status).toBe(403);
    const taken = failure(
      await teacher({ method: 'PUT', url, payload: { name: '转班生甲', code: '2026010102', classId: CLASS_2 } }),
    );
    expect(taken.status).toBe(409);
    expect(
      failure(await other.call({ method: 'PUT', url, payload: { name: 'x', code: '2026019912', classId: CLASS_2 } })).status,
    ).toBe(404);
  });

  it('archives a student (off the roster, kept with ?archived=true) and restores them', async () => {
    const student = studentSchema.parse((await add(CLASS_1, { name: '离校生', code: '2026019921' })).json().data);
    const archive = (archived: boolean) =>
      teacher({ method: 'POST', url: `/api/students/${student.id}/archive`, payload: { archived } });
    expect(studentSchema.parse((await archive(true)).json().data).archived).toBe(true);
    expect((await list(CLASS_1)).some((s) => s.id === student.id)).toBe(false);
    expect((await list(CLASS_1, true)).find((s) => s.id === student.id)?.archived).toBe(true);
    // Still holds the code.
    expect(failure(await add(CLASS_2, { name: '占号', code: '2026019921' })).status).toBe(409);
    expect(studentSchema.parse((await archive(false)).json().data).archived).toBe(false);
    expect((await list(CLASS_1)).some((s) => s.id === student.id)).toBe(true);
  });

  it('exports the roster as a file the importer takes back unchanged', async () => {
    const response = await teacher({ method: 'GET', url: `/api/classes/${CLASS_2}/students/export` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain(XLSX);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const before = await list(CLASS_2);
    expect(sheet.getRow(1).values).toEqual([undefined, '姓名', '学号']);
    expect(sheet.rowCount - 1).toBe(before.length);
    const imported = rosterImportResultSchema.parse(
      (
        await teacher({
          method: 'POST',
          url: `/api/classes/${CLASS_2}/students/import`,
          ...multipartFile('file', 'export.xlsx', response.rawPayload, XLSX),
        })
      ).json().data,
    );
    expect(imported).toEqual({ imported: before.length, errors: [] });
    expect(await list(CLASS_2)).toEqual(before);
    expect(failure(await other.call({ method: 'GET', url: `/api/classes/${CLASS_2}/students/export` })).status).toBe(404);
  });
});
