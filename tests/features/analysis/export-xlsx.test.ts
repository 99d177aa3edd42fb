import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildWorkbook, excelCell } from '../../../src/features/analysis/export-xlsx';

describe('Excel export of the analysis pages', () => {
  it('writes figures as numbers with the format that shows what the page showed', () => {
    expect(excelCell('37.88', '平均分')).toEqual({ value: 37.88, numFmt: '0.00' });
    expect(excelCell('37.9', '平均分')).toEqual({ value: 37.9, numFmt: '0.0' });
    expect(excelCell('38', '平均分')).toEqual({ value: 38, numFmt: '0' });
    expect(excelCell('63.1%', '得分率')).toEqual({ value: 0.631, numFmt: '0.0%' });
    expect(excelCell('100%', '及格率')).toEqual({ value: 1, numFmt: '0%' });
    expect(excelCell(12, '参考人数')).toEqual({ value: 12 });
    // No figure is an empty cell, never 0; words and identifiers stay text.
    expect(excelCell('—', '平均分')).toEqual({ value: null });
    expect(excelCell(null, '平均分')).toEqual({ value: null });
    expect(excelCell('缺考', '总分')).toEqual({ value: '缺考' });
    expect(excelCell('0012', '学号')).toEqual({ value: '0012' });
    expect(excelCell('20230101', '学号')).toEqual({ value: '20230101' });
  });

  it('reads back as numbers a spreadsheet can sum, with the header and layout kept', async () => {
    const workbook = await buildWorkbook([
      {
        name: '班级对比',
        header: ['班级', '参考人数', '在册人数', '平均分', '得分率', '优秀率', '及格率'],
        rows: [
          ['1班', 40, 42, '37.88', '63.1%', '—', '80%'],
          ['2班', 0, 40, '—', '—', '—', '—'],
        ],
      },
    ]);
    const copy = new ExcelJS.Workbook();
    await copy.xlsx.load(await workbook.xlsx.writeBuffer());
    const sheet = copy.getWorksheet('班级对比')!;
    expect(sheet.getRow(1).values).toEqual([undefined, '班级', '参考人数', '在册人数', '平均分', '得分率', '优秀率', '及格率']);
    const row = sheet.getRow(2);
    expect(row.values).toEqual([undefined, '1班', 40, 42, 37.88, 0.631, undefined, 0.8]);
    expect(row.getCell(4).numFmt).toBe('0.00');
    expect(row.getCell(5).numFmt).toBe('0.0%');
    expect(row.getCell(7).numFmt).toBe('0%');
    // A class without participants: the count 0 is real, the figures are empty (not 0).
    expect(sheet.getRow(3).values).toEqual([undefined, '2班', 0, 40]);
  });
});
