import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardXlsx, XlsxRefused, type XlsxLimits } from '../../../server/lib/xlsx-guard';

const LIMITS: XlsxLimits = { maxUncompressedBytes: 20 * 1024 * 1024, maxEntries: 200, maxRows: 10_000, maxCells: 100_000 };

async function roster(rows: number): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('花名册');
  sheet.addRow(['姓名', '学号']);
  for (let i = 0; i < rows; i += 1) sheet.addRow([`学生${i}`, String(2026000000 + i)]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const ROW = '<row><c t="inlineStr"><is><t>x</t></is></c></row>';

/** The roster with its first sheet's data replaced by `rows` identical one-cell rows (compresses ~1000:1). */
async function withSheetRows(rows: number): Promise<Uint8Array> {
  const files = unzipSync(await roster(1));
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const tail = '</sheetData></worksheet>';
  files['xl/worksheets/sheet1.xml'] = Buffer.concat([Buffer.from(head), Buffer.alloc(rows * ROW.length, ROW), Buffer.from(tail)]);
  return zipSync(files, { level: 6 });
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof XlsxRefused) return error.problem;
    throw error;
  }
  return null;
};

describe('guardXlsx', () => {
  it('passes a real roster through, re-zipped, still readable', async () => {
    const checked = guardXlsx(await roster(2000), LIMITS);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(checked as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]!.rowCount).toBe(2001);
  });

  it('refuses a zip bomb (a small file inflating far beyond the budget) in well under a second', async () => {
    // 2,000,000 rows: about 100 MB of XML in a file of a few hundred kilobytes.
    const bomb = await withSheetRows(2_000_000);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    expect(refusal(() => guardXlsx(bomb, LIMITS))).toBe('tooLarge');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  let tooManyRows: Uint8Array;
  beforeAll(async () => {
    tooManyRows = await withSheetRows(12_000);
  });

  it('refuses too many rows within the size budget', async () => {
    expect(refusal(() => guardXlsx(tooManyRows, LIMITS))).toBe('tooManyRows');
  });

  it('never inflates an entry beyond the size its header declares', async () => {
    const honest = await withSheetRows(1_000_000);
    const lying = Buffer.from(honest);
    // Declare 1 KB for every entry, in the local headers and the central directory.
    for (let i = 0; i + 4 < lying.length; i += 1) {
      const signature = lying.readUInt32LE(i);
      if (signature === 0x04034b50) lying.writeUInt32LE(1024, i + 22);
      if (signature === 0x02014b50) lying.writeUInt32LE(1024, i + 24);
    }
    const problem = refusal(() => guardXlsx(lying, LIMITS));
    // Either way nothing large was inflated: the entries were cut to their declared 1 KB.
    expect(problem === null || problem === 'notZip').toBe(true);
  });

  it('refuses what is not a zip', () => {
    expect(refusal(() => guardXlsx(strToU8('姓名,学号\n张三,2026000001'), LIMITS))).toBe('notZip');
  });
});
