/**
 * 错题重练 end to end over the demo semester: /rehearse shows the class's wrong questions, the set maker
 * previews two students' personalised sets with a reason for every question (and swaps one), makes the
 * re-practice homework and prints it (the class PDF and a student's PDF download), the simulated scanner
 * at the portal's /scan draws each of the two students on their own sheet, the real recognition engine
 * reads and scores them against their own questions, and their wrong questions move in the book by what
 * they got right (the last redo of it right: 重练对 1; wrong: 待重练).
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { SetPreview } from '../../src/shared/contract/rehearse-sets';
import { loginAs, watchErrors } from './portal-helpers';
import { accessToken, chooseSimulatedScanner, feed, feedEnded } from './scan-helpers';

type Options = { subjects: { id: number; name: string }[]; classes: { id: number; name: string; schoolYearId: number }[] };
type ScoreTable = {
  questions: { questionNo: number; score: number }[];
  students: { studentId: number; status: string; scores: Record<string, number | null> }[];
};
type Book = { entries: { questionId: number; mastery: string }[] };

test('a personalised re-practice set: previewed, made, printed, scanned for two students and scored against their own questions', async ({
  page,
}) => {
  test.setTimeout(420_000);
  const errors = watchErrors(page);
  await loginAs(page, 'teacher');
  const token = await accessToken(page);
  const api = async <T>(url: string): Promise<T> => {
    const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status(), url).toBe(200);
    return ((await response.json()) as { data: T }).data;
  };
  const options = await api<Options>('/api/rehearse/options');
  const math = options.subjects.find((s) => s.name === '数学')!;

  // The book: the class's most-missed questions with their 得分率.
  await page.goto(`/rehearse?subjectId=${math.id}`);
  await expect(page.getByRole('heading', { name: '错题重练' })).toBeVisible();
  await expect(page.getByText('得分率').first()).toBeVisible({ timeout: 30_000 });

  // The set maker: two students, preview with reasons.
  await page.getByRole('button', { name: '生成错题重练' }).click();
  const maker = page.locator('.semi-sidesheet');
  await expect(maker.getByText('生成错题重练')).toBeVisible();
  await maker.getByText('全班', { exact: true }).click();
  const studentOptions = page.getByRole('option');
  await studentOptions.nth(0).click();
  await studentOptions.nth(1).click();
  await maker.getByText('每人错题数').click();
  const previewed = page.waitForResponse((r) => r.url().endsWith('/api/rehearse/sets/preview') && r.status() === 200);
  await maker.getByRole('button', { name: '预览' }).click();
  let preview = ((await (await previewed).json()) as { data: SetPreview }).data;
  expect(preview.students).toHaveLength(2);
  await expect(maker.getByText(/^理由：/).first()).toBeVisible();
  await expect(maker.getByText('原题', { exact: true }).first()).toBeVisible();

  // Swap a similar question when there is another candidate.
  const swappable = preview.students.flatMap((s) =>
    s.items.filter((i) => i.kind === 'similar' && i.alternatives.length > 0).map((i) => ({ s, i })),
  );
  if (swappable.length > 0) {
    const { s, i } = swappable[0]!;
    await maker
      .getByRole('list', { name: '学生列表' })
      .getByRole('button', { name: new RegExp(`^${s.name} `) })
      .click();
    // Semi's Select drops its aria-label: the first 换一题 of this student is this item's.
    await maker.getByText('换一题', { exact: true }).first().click();
    const swapped = page.waitForResponse((r) => r.url().endsWith('/api/rehearse/sets/preview') && r.status() === 200);
    await page.getByRole('option').first().click();
    preview = ((await (await swapped).json()) as { data: SetPreview }).data;
    const after = preview.students.find((x) => x.studentId === s.studentId)!.items.find((x) => x.position === i.position)!;
    expect(after.questionId).toBe(i.alternatives[0]);
  }

  // Make and print: the class PDF downloads, then one student's.
  const title = `错题重练E2E${Date.now() % 10_000}`;
  await maker.getByPlaceholder('重练作业的标题').fill(title);
  const classPdf = page.waitForEvent('download');
  await maker.getByRole('button', { name: '生成并打印' }).click();
  const download = await classPdf;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(
    fs
      .readFileSync(await download.path())
      .subarray(0, 4)
      .toString(),
  ).toBe('%PDF');
  await expect(maker.getByText(/已生成：2 名学生/)).toBeVisible();
  const studentPdf = page.waitForEvent('download');
  await maker.getByRole('button', { name: `下载 ${preview.students[0]!.name} 的 PDF` }).click();
  expect((await studentPdf).suggestedFilename()).toContain(preview.students[0]!.name);

  // Scan: the portal's /scan page, the new homework, the simulated scanner.
  await page.keyboard.press('Escape');
  await page.goto('/scan');
  await page.getByRole('combobox', { name: '选择作业' }).click();
  await page.getByRole('option', { name: new RegExp(title) }).click();
  await chooseSimulatedScanner(page);
  await feed(page, 'button');
  await feedEnded(page);

  const homework = (await api<{ list: { id: number; title: string }[] }>('/api/homework?page=1&pageSize=20')).list.find(
    (h) => h.title === title,
  )!;
  // Both students recognised: every objective question of their own sheet has a score.
  let table: ScoreTable | null = null;
  await expect
    .poll(
      async () => {
        table = await api<ScoreTable>(`/api/marking/homework/${homework.id}/scores`);
        return preview.students.every((s) => {
          const row = table!.students.find((r) => r.studentId === s.studentId);
          return row !== undefined && row.status !== 'unscanned' && s.items.some((i) => row.scores[String(i.position)] != null);
        });
      },
      { timeout: 180_000, intervals: [2000] },
    )
    .toBe(true);

  // The book follows each student's own scores.
  let checked = 0;
  for (const student of preview.students) {
    const row = table!.students.find((r) => r.studentId === student.studentId)!;
    const book = await api<Book>(`/api/rehearse/student?studentId=${student.studentId}&mastery=all`);
    const origins = [...new Set(student.items.map((i) => i.originQuestionId))];
    for (const origin of origins) {
      const scores = student.items.filter((i) => i.originQuestionId === origin).map((i) => row.scores[String(i.position)]);
      if (scores.some((s) => s == null)) continue;
      const entry = book.entries.find((e) => e.questionId === origin);
      expect(entry, `origin ${origin}`).toBeDefined();
      // Redos count in question order: a right one moves 待重练 to 重练对 1, a wrong one back to 待重练.
      expect(entry!.mastery).toBe(scores[scores.length - 1] === 5 ? 'redo1' : 'pending');
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThan(0);
  await page.goto(`/rehearse?subjectId=${math.id}&studentId=${preview.students[0]!.studentId}&mastery=all`);
  // The student's book on the page shows the states (its queries are slow on a busy machine).
  await expect(page.getByText(/待重练|重练对 1/).first()).toBeVisible({ timeout: 60_000 });
  // The scan page probes the local scanning service (ports 186xx), which this machine does not run.
  expect(errors.filter((e) => !/Failed to load resource|127\.0\.0\.1:186\d\d/.test(e))).toEqual([]);
});
