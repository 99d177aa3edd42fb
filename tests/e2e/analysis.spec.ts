/**
 * Learning analysis in the browser over the demo semester: each page shows the numbers its API answered
 * (read from the page's own response, then looked for on screen), as a teacher (grade -> student, class,
 * the student picked from the class's roster and printed on one page, the four homework pages with the
 * commentary's arrow keys and the Word download, /bigData) and as a grade director (the three data-centre
 * reports and their Excel downloads, opened with exceljs), and the data centre refused to a plain teacher.
 */
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { loginAs, watchErrors } from './portal-helpers';

const pct = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : `${(value * 100).toFixed(digits)}%`;
const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined ? '—' : String(Math.round(value * 10 ** digits) / 10 ** digits);

/** Screenshots at 1440 and 375 px wide (looked at by hand; not compared). */
async function shoot(page: Page, name: string) {
  for (const width of [1440, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `.test-output/screens/analysis-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Counts the page's calls of window.print instead of opening the print dialog. */
async function stubPrint(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { printed: number };
    w.printed = 0;
    window.print = () => {
      w.printed += 1;
    };
  });
}
const printCount = (page: Page) => page.evaluate(() => (window as unknown as { printed: number }).printed);

/** A rate as the Excel holds it: the fraction the page shows as a percentage (0.631 for 63.1%), empty without data. */
const rateCell = (value: number | null) =>
  value === null ? undefined : Number((Number((value * 100).toFixed(1)) / 100).toFixed(3));

/** Clicks the first 导出 Excel and answers the downloaded workbook's sheet, rows of cell values (header first). */
async function exported(page: Page, fileName: string, sheetName: string): Promise<unknown[][]> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出 Excel' }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(fileName);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await file.path())!);
  const sheet = workbook.getWorksheet(sheetName)!;
  expect(sheet, sheetName).toBeTruthy();
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** Opens a page and answers the data of the first API response whose path starts with `api`. */
async function openWith<T>(page: Page, url: string, api: string): Promise<T> {
  const response = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith(api) && r.request().method() === 'GET');
  await page.goto(url);
  const answered = await response;
  expect(answered.status()).toBe(200);
  return ((await answered.json()) as { data: T }).data;
}

type Overview = {
  totals: { scoreRate: number | null; participants: number; enrolled: number };
  students: { studentId: number; name: string }[];
  scope: { subjectId: number };
};
type Homework = {
  homework: { id: number; title: string };
  summary: { totals: { mean: number | null }; participation: { participants: number } };
  questions: { no: number; scoreRate: number | null }[];
  students: { name: string; status: string; scores: (number | null)[] }[];
};

test('a teacher reads grade, class, student and one homework; the numbers are the API answers', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');

  const grade = await openWith<Overview>(page, '/analysis/grade', '/api/analysis/grade');
  await expect(page.getByText(`参考 ${grade.totals.participants} / 在册 ${grade.totals.enrolled} 人次`)).toBeVisible();
  await expect(page.getByText(pct(grade.totals.scoreRate), { exact: true }).first()).toBeVisible();

  const first = grade.students[0]!;
  const person = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analysis/person');
  await page.getByRole('link', { name: first.name, exact: true }).first().click();
  await expect(page).toHaveURL(/\/analysis\/person\?/);
  const personData = (
    (await (await person).json()) as { data: { summary: { scoreRate: number; taken: number; absent: number } } }
  ).data;
  await expect(page.getByText(`${personData.summary.taken} / ${personData.summary.absent}`, { exact: true })).toBeVisible();
  await expect(page.getByText(pct(personData.summary.scoreRate), { exact: true }).first()).toBeVisible();
  await shoot(page, 'person');

  // 打印报告: the browser's print, and the printed page is the report alone, on one A4 page.
  await stubPrint(page);
  await page.getByRole('button', { name: '打印报告' }).click();
  expect(await printCount(page)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: '导出 Excel' })).toBeHidden();
  await expect(page.getByText('得分率趋势').first()).toBeVisible();
  const pdf = await PDFDocument.load(await page.pdf({ format: 'A4', printBackground: true }));
  expect(pdf.getPageCount()).toBe(1);
  await page.emulateMedia({ media: 'screen' });

  // The page's own picker (班级, then 学生) reads the class's light roster, never the class view.
  const classViews: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/analysis/class') classViews.push(r.url());
  });
  const rosterAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analysis/class/students');
  await page.goto('/analysis/person');
  const roster = ((await (await rosterAnswer).json()) as { data: { students: { id: number; name: string; code: string }[] } })
    .data;
  const second = roster.students[1]!;
  const picked = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analysis/person');
  await page.getByText('请选择学生').click();
  await page
    .getByRole('option')
    .filter({ hasText: `${second.name}（${second.code}）` })
    .click();
  expect(new URL((await picked).url()).searchParams.get('studentId')).toBe(String(second.id));
  await expect(page.getByRole('heading', { name: new RegExp(`^${second.name}（`) })).toBeVisible();
  await shoot(page, 'person-picked');
  expect(classViews).toEqual([]);

  const klass = await openWith<Overview>(page, '/analysis/class', '/api/analysis/class');
  await expect(page.getByText(pct(klass.totals.scoreRate), { exact: true }).first()).toBeVisible();

  const options = await openWith<{ homework: { id: number; scored: boolean; subjectId: number }[] }>(
    page,
    '/analysis/grade',
    '/api/analysis/options',
  );
  const hwId = options.homework.find((h) => h.scored)!.id;

  const hw = await openWith<Homework>(page, `/assistant/analysis?homeworkId=${hwId}`, '/api/analysis/homework/');
  await expect(page.getByText(num(hw.summary.totals.mean), { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('img', { name: '各题得分率图' }).locator('canvas')).toBeVisible();
  await shoot(page, 'homework');

  // 打印 of 数据分析: the browser's print; on A4 the report names its homework, shows neither the top bar
  // nor the page's buttons, and is laid out at the paper's width (718 CSS px inside the 10 mm margins): a
  // chart left at the screen's size would overflow it, and Chromium would shrink the whole report to fit.
  await stubPrint(page);
  await page.getByRole('button', { name: /^(print )?打印$/ }).click();
  expect(await printCount(page)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { name: `${hw.homework.title} 数据分析` })).toBeVisible();
  await expect(page.getByRole('button', { name: '导出 Excel' })).toBeHidden();
  await expect(page.getByRole('button', { name: '智慧作业首页' })).toBeHidden();
  await expect(page.getByRole('tab', { name: '数据分析' })).toBeHidden();
  // Laid out at the paper's width, the charts, cards and tables stay within it.
  const rightmost = await page.evaluate(() => {
    document.documentElement.style.width = '718px';
    const parts = [...document.querySelectorAll('canvas, table, .semi-card')].filter((e) => e.getClientRects().length > 0);
    const right = Math.max(...parts.map((e) => e.getBoundingClientRect().right));
    document.documentElement.style.width = '';
    return { right, parts: parts.length };
  });
  expect(rightmost.parts).toBeGreaterThan(5);
  expect(rightmost.right).toBeLessThanOrEqual(718);
  // The demo homework (16 questions, 15 knowledge points): cards and the two charts, then the tables.
  const report = await PDFDocument.load(await page.pdf({ format: 'A4', printBackground: true }));
  expect(report.getPageCount()).toBe(2);
  await page.emulateMedia({ media: 'screen' });

  await openWith<Homework>(page, `/assistant/commentary?homeworkId=${hwId}`, '/api/analysis/homework/');
  const [q1, q2] = hw.questions;
  await expect(page.getByRole('heading', { name: new RegExp(`^第 ${q1!.no} 题`) })).toBeVisible();
  await expect(page.getByText(pct(q1!.scoreRate), { exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('heading', { name: new RegExp(`^第 ${q2!.no} 题`) })).toBeVisible();
  await expect(page.getByText(pct(q2!.scoreRate), { exact: true })).toBeVisible();
  await shoot(page, 'commentary');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('heading', { name: new RegExp(`^第 ${q1!.no} 题`) })).toBeVisible();
  // Anonymous by default.
  const named = hw.students.find((s) => s.status === 'complete')!;
  await expect(page.getByText(named.name, { exact: true })).toHaveCount(0);

  await openWith<Homework>(page, `/assistant/details?homeworkId=${hwId}`, '/api/analysis/homework/');
  await expect(page.getByLabel(`${named.name} 第${hw.questions[0]!.no}题 ${named.scores[0]}分`)).toBeVisible();

  await openWith<Homework>(page, `/assistant/papaerReport?homeworkId=${hwId}`, '/api/analysis/homework/');
  await shoot(page, 'report');
  // 报告 prints on one A4 page.
  await page.emulateMedia({ media: 'print' });
  expect((await PDFDocument.load(await page.pdf({ format: 'A4', printBackground: true }))).getPageCount()).toBe(1);
  await page.emulateMedia({ media: 'screen' });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载 Word' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${hw.homework.title}-作业报告.docx`);
  const zip = await JSZip.loadAsync(fs.readFileSync((await file.path())!));
  const text = (await zip.file('word/document.xml')!.async('string')).replace(/<[^>]+>/g, '');
  expect(text).toContain(`${hw.homework.title} 作业报告`);
  expect(text).toContain(num(hw.summary.totals.mean, 2));

  const big = await openWith<{ students: number; homeworkFinished: number }>(page, '/bigData', '/api/analysis/big-data');
  await expect(page.getByText(String(big.students), { exact: true }).first()).toBeVisible();

  // The data centre is for grade directors (the server's 403 is tested in analysis.routes.test.ts).
  await page.goto('/dataCenter/subject');
  await expect(page.getByText('很抱歉，您暂无该操作权限').first()).toBeVisible();
  expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
});

test('a grade director reads the three data-centre reports', async ({ page }) => {
  test.setTimeout(180_000);
  await loginAs(page, 'director');
  const subject = await openWith<{
    schoolYear: { name: string };
    subjects: { name: string; scoreRate: number | null; passRate: number | null }[];
  }>(page, '/dataCenter/subject', '/api/analysis/data-center/subject');
  expect(subject.subjects.length).toBeGreaterThan(0);
  await expect(page.getByText(pct(subject.subjects[0]!.scoreRate), { exact: true }).first()).toBeVisible();
  const subjectSheet = await exported(page, `${subject.schoolYear.name}-学科统计.xlsx`, '学科统计');
  expect(subjectSheet[0]!.slice(0, 6)).toEqual(['学科', '作业数', '参考人次', '得分率', '及格率', '优秀率']);
  expect(subjectSheet.slice(1).map((r) => [r[0], r[3], r[4]])).toEqual(
    subject.subjects.map((s) => [s.name, rateCell(s.scoreRate), rateCell(s.passRate)]),
  );

  const correct = await openWith<{
    schoolYear: { name: string };
    rows: { teacherName: string; className: string; scannedSheets: number; expectedSheets: number }[];
  }>(page, '/dataCenter/correctScore', '/api/analysis/data-center/correct-score');
  const row = correct.rows[0]!;
  const correctSheet = await exported(page, `${correct.schoolYear.name}-作业批改报表.xlsx`, '作业批改报表');
  expect(correctSheet.length).toBe(correct.rows.length + 1);
  expect(correctSheet[1]!.slice(0, 2)).toEqual([row.teacherName, row.className]);
  expect(correctSheet[1]![5]).toBe(row.scannedSheets);
  await expect(
    page
      .getByText(
        `${pct(row.expectedSheets ? row.scannedSheets / row.expectedSheets : null)}（${row.scannedSheets}/${row.expectedSheets}）`,
      )
      .first(),
  ).toBeVisible();

  const average = await openWith<{
    homework: { title: string };
    grade: { mean: number | null; scoreRate: number | null };
    classes: { name: string; scoreRate: number | null }[];
  }>(page, '/dataCenter/averageScore', '/api/analysis/data-center/average-score');
  await expect(page.getByText(pct(average.grade.scoreRate), { exact: true }).first()).toBeVisible();
  const averageSheet = await exported(page, `${average.homework.title}-班级均分及小题对比.xlsx`, '班级均分');
  expect(averageSheet[0]!.slice(0, 6)).toEqual(['班级', '参考人数', '在册人数', '平均分', '与年级差', '得分率']);
  // Every class's row and the grade's carry the page's 得分率.
  expect(averageSheet.map((r) => r[5])).toContain(rateCell(average.grade.scoreRate));
  for (const klass of average.classes) {
    expect(averageSheet.find((r) => r[0] === klass.name)?.[5], klass.name).toBe(rateCell(klass.scoreRate));
  }
});

test('a school manager sets ranks per school year on /team/details', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, 'creator');
  await openWith(page, '/team/details', '/api/analysis/options');
  const panel = page.getByRole('region', { name: '排名设置' });
  await expect(panel.getByText('2026级 (初一)')).toBeVisible();
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analysis/rank-settings');
  await panel.getByText('显示排名', { exact: true }).first().click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('排名设置已保存')).toBeVisible();
  await shoot(page, 'team-details-ranks');
  const back = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/analysis/rank-settings');
  await panel
    .getByText(/^默认（/)
    .first()
    .click();
  expect((await back).status()).toBe(200);
});
