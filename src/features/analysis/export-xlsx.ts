/**
 * Exports a table as an Excel workbook in the browser. exceljs is loaded only when a teacher clicks
 * 导出 Excel, so it never weighs on a page's first view. The cells are the figures the page shows.
 */
export type ExportColumn = { title: string; value: (row: never) => string | number | null };

export async function buildWorkbook(sheets: { name: string; header: string[]; rows: (string | number | null)[][] }[]) {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = workbook.addWorksheet(sheet.name.slice(0, 31));
    ws.addRow(sheet.header);
    for (const row of sheet.rows) ws.addRow(row);
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
