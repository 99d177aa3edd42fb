import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rosterImportResultSchema, studentListSchema } from '../../../src/shared/contract/papers';
import { students } from '../../../server/db/schema';
import { ROSTER_MESSAGES } from '../../../server/services/papers/student.service';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool, multipartFile, unzip } from './papers-helper';

const CLASS_1 = 4;
const EMPTY_CLASS = 8; // 初二(1)班: the demo seeds students only in the 2026级 classes
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function roster(rows: (string | number | null)[][], header: string[] = ['姓名', '学号']): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('花名册');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('the student endpoints', () => {
  const app = useTestApp();
  let teacher: Caller;
  // Rosters are changed by those who run the class (permissions.ts): the demo creator may change any.
  let creator: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
    creator = await callerFor(app(), 'creator');
    other = await createOtherSchool(app());
  });

  const upload = async (classId: number, file: Buffer, caller: Caller = creator, name = 'roster.xlsx') =>
    caller({ method: 'POST', url: `/api/classes/${classId}/students/import`, ...multipartFile('file', name, file, XLSX) });

  const countStudents = async () => (await app().database.db.select({ id: students.id }).from(students)).length;

  it('lists the 40 demo students of a class in code order', async () => {
    const list = studentListSchema.parse((await teacher({ method: 'GET', url: `/api/classes/${CLASS_1}/students` })).json().data);
    expect(list).toHaveLength(40);
    expect(list[0]!.code).toBe('2026010101');
    expect(list.map((s) => s.code)).toEqual([...list.map((s) => s.code)].sort());
    expect(new Set(list.map((s) => s.name)).size).toBe(40);
  });

  it("answers 404 for another school's class", async () => {
    expect(failure(await other.call({ method: 'GET', url: `/api/classes/${CLASS_1}/students` })).status).toBe(404);
    expect(failure(await upload(CLASS_1, await roster([['张三', '2099000001']]), other.call)).status).toBe(404);
    // A teacher who neither teaches nor runs the class may read its students but not change them.
    expect(failure(await upload(EMPTY_CLASS, await roster([['张三', '2099000001']]), teacher))).toEqual({
      status: 403,
      msg: '很抱歉，您暂无该操作权限',
    });
  });

  it('imports a good roster', async () => {
    const before = await countStudents();
    const response = await upload(
      EMPTY_CLASS,
      await roster([
        ['张三', '2025010101'],
        ['李四', 2025010102],
      ]),
    );
    expect(rosterImportResultSchema.parse(response.json().data)).toEqual({ imported: 2, errors: [] });
    expect(await countStudents()).toBe(before + 2);
    const list = studentListSchema.parse(
      (await teacher({ method: 'GET', url: `/api/classes/${EMPTY_CLASS}/students` })).json().data,
    );
    expect(list.map((s) => [s.name, s.code])).toEqual([
      ['张三', '2025010101'],
      ['李四', '2025010102'],
    ]);
  });

  it('renames a student of the same class on a second import instead of duplicating them', async () => {
    const before = await countStudents();
    const response = await upload(EMPTY_CLASS, await roster([['张三丰', '2025010101']]));
    expect(rosterImportResultSchema.parse(response.json().data)).toEqual({ imported: 1, errors: [] });
    expect(await countStudents()).toBe(before);
    const list = studentListSchema.parse(
      (await teacher({ method: 'GET', url: `/api/classes/${EMPTY_CLASS}/students` })).json().data,
    );
    expect(list.find((s) => s.code === '2025010101')?.name).toBe('张三丰');
  });

  it('imports each new student once when the same roster is imported into two classes at the same time', async () => {
    const file = await roster([
      ['王五', '2025090101'],
      ['赵六', '2025090102'],
    ]);
    const before = await countStudents();
    const answers = await Promise.all([upload(EMPTY_CLASS, file), upload(EMPTY_CLASS + 1, file)]);
    const statuses = answers.map((a) => a.statusCode).sort();
    // Whichever order they commit in: one imports, the other is refused (a row error or the retry
    // message), never a server error, and no code is written twice.
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const imported = answers.map((a) => (a.statusCode === 200 ? rosterImportResultSchema.parse(a.json().data).imported : 0));
    expect(imported.filter((n) => n === 2)).toHaveLength(1);
    for (const a of answers) if (a.statusCode === 409) expect(failure(a).msg).toBe(ROSTER_MESSAGES.concurrent);
    expect(await countStudents()).toBe(before + 2);
  });

  it('rejects a bad roster row by row and writes nothing', async () => {
    const before = await countStudents();
    const file = await roster([
      ['王五', '2025010201'], // row 2: fine on its own
      ['', '2025010202'], // row 3
      ['赵六', 'A123'], // row 4
      ['孙七', '2025010201'], // row 5: repeats row 2
      ['周八', '2026010101'], // row 6: a demo student of 初一(1)班
      ['吴九', null], // row 7
      [null, null], // row 8: empty, skipped
      ['郑十', '2025010203'], // row 9: fine
    ]);
    const result = rosterImportResultSchema.parse((await upload(EMPTY_CLASS, file)).json().data);
    expect(result.imported).toBe(0);
    expect(result.errors.map((e) => e.row)).toEqual([3, 4, 5, 6, 7]);
    expect(result.errors[0]!.reason).toBe('姓名不能为空');
    expect(result.errors[1]!.reason).toBe('学号必须是 4 到 20 位数字');
    expect(result.errors[2]!.reason).toBe('学号 2025010201 与第 2 行重复');
    expect(result.errors[3]!.reason).toMatch(/^学号 2026010101 已被初一\(1\)班的.+使用$/);
    expect(result.errors[4]!.reason).toBe('学号不能为空');
    expect(await countStudents()).toBe(before);
  });

  it('answers 400 for a file that is not an .xlsx roster', async () => {
    expect(failure(await upload(EMPTY_CLASS, Buffer.from('姓名,学号\n张三,1234'), creator, 'roster.csv'))).toEqual({
      status: 400,
      msg: '请上传 .xlsx 格式的花名册文件',
    });
    expect(failure(await upload(EMPTY_CLASS, await roster([['张三', '2025019999']], ['名字', '编号']))).msg).toBe(
      '花名册第一行必须包含“姓名”和“学号”两列',
    );
    expect(failure(await upload(EMPTY_CLASS, await roster([]))).msg).toBe('花名册中没有学生');
    const notMultipart = await teacher({ method: 'POST', url: `/api/classes/${EMPTY_CLASS}/students/import`, payload: {} });
    expect(failure(notMultipart)).toEqual({ status: 400, msg: '请上传花名册文件' });
  });

  it('answers the roster template as an .xlsx with the two columns', async () => {
    const response = await teacher({ method: 'GET', url: '/api/students/roster-template' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX);
    expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('学生花名册模板.xlsx')}`);
    expect(unzip(response.rawPayload).has('xl/workbook.xml')).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, '姓名', '学号']);
  });
});
