/** A roster that is a zip bomb is refused before it is parsed, with a clear message. */
import ExcelJS from 'exceljs';
import { unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROSTER_MESSAGES } from '../../../server/services/papers/student.service';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, multipartFile } from './papers-helper';

const CLASS_1 = 4;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ROW = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';

async function bomb(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('花名册').addRow(['姓名', '学号']);
  const files = unzipSync(new Uint8Array(await workbook.xlsx.writeBuffer()));
  files['xl/worksheets/sheet1.xml'] = Buffer.concat([
    Buffer.from('<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'),
    Buffer.alloc(rows * ROW.length, ROW),
    Buffer.from('</sheetData></worksheet>'),
  ]);
  return Buffer.from(zipSync(files, { level: 6 }));
}

describe('POST /api/classes/:id/students/import with a hostile roster', () => {
  const app = useTestApp();
  let teacher: Caller;

  beforeAll(async () => {
    teacher = await callerFor(app(), 'teacher');
  });

  it('refuses a file inflating to about 100 MB quickly, and the server keeps answering', async () => {
    const file = await bomb(2_000_000);
    const started = Date.now();
    const [response, health] = await Promise.all([
      teacher({ method: 'POST', url: `/api/classes/${CLASS_1}/students/import`, ...multipartFile('file', 'r.xlsx', file, XLSX) }),
      app().inject({ method: 'GET', url: '/api/health' }),
    ]);
    expect(failure(response)).toEqual({ status: 400, msg: ROSTER_MESSAGES.tooLarge });
    expect(health.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a file of more rows than a roster can have, before parsing it', async () => {
    const response = await teacher({
      method: 'POST',
      url: `/api/classes/${CLASS_1}/students/import`,
      ...multipartFile('file', 'r.xlsx', await bomb(12_000), XLSX),
    });
    expect(failure(response)).toEqual({ status: 400, msg: ROSTER_MESSAGES.tooManyRows });
  });
});
