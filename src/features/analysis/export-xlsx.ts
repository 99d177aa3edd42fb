/**
 * Exports a table as an Excel workbook in the browser. exceljs is loaded only when a teacher clicks
 * 导出 Excel, so it never weighs on a page's first view. The cells are the figures the page shows,
 * written as numbers (a teacher sums, sorts and charts them) with a number format that shows the same text:
 * "37.88" is 37.88 shown as 0.00, "63.1%" is 0.631 shown as 0.0%. "—" (no figure) is an empty cell, never 0.
 */
export type ExportColumn = { title: string; value: (row: never) => string | number | null };

type Cell = string | number | null;

/** Columns that hold identifiers written with digits (学号 "0012" must not become 12). */
const TEXT_HEADERS = new Set(['学号', '考号', '编号', '姓名', '班级', '题号', '日期', '作业', '题目', '知识点']);

const PLAIN_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?$/;
const PERCENT = /^-?(?:0|[1-9]\d*)(?:\.(\d+))?%$/;

const decimalsFormat = (decimals: number) => (decimals > 0 ? `0.${'0'.repeat(decimals)}` : '0');

/** One cell as Excel stores it: a number with the format that shows what the page showed, or text. */
export function excelCell(cell: Cell, header: string): { value: Cell; numFmt?: string } {
  if (cell === '—') return { value: null };
  if (typeof cell !== 'string' || TEXT_HEADERS.has(header)) return { value: cell };
  const plain = PLAIN_NUMBER.exec(cell);
  if (plain) return { value: Number(cell), numFmt: decimalsFormat(plain[1]?.length ?? 0) };
  const percent = PERCENT.exec(cell);
  if (percent) {
    const decimals = percent[1]?.length ?? 0;
    // Rounded to the digits shown, so 0.631 is not written as 0.63100000000000001.
    const fraction = Number((Number(cell.slice(0, -1)) / 100).toFixed(decimals + 2));
    return { value: fraction, numFmt: `${decimalsFormat(decimals)}%` };
  }
  return { value: cell };
}

export async function buildWorkbook(sheets: { name: string; header: string[]; rows: Cell[][] }[]) {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = workbook.addWorksheet(sheet.name.slice(0, 31));
    ws.addRow(sheet.header);
    for (const row of sheet.rows) {
      const cells = row.map((cell, index) => excelCell(cell, sheet.header[index] ?? ''));
      const added = ws.addRow(cells.map((c) => c.value));
      cells.forEach((c, index) => {
        if (c.numFmt) added.getCell(index + 1).numFmt = c.numFmt;
      });
    }
    ws.getRow(1).font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return workbook;
}

export async function workbookBlob(sheets: Parameters<typeof buildWorkbook>[0]): Promise<Blob> {
  const workbook = await buildWorkbook(sheets);
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
