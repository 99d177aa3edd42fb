import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { PaperListPage } from '../../../src/features/papers/pages/paperlist-page';
import { fakeHttp, homework, renderWithPapers } from './papers-test-kit';

function renderList(
  rows = [homework(1), homework(2, { title: '期中复习', status: 'finished' })],
  extra: Parameters<typeof renderWithPapers>[3] = {},
) {
  const fake = fakeHttp((url, params) => {
    if (url === '/api/subjects')
      return [
        { id: 1, name: '数学' },
        { id: 2, name: '语文' },
      ];
    if (url === '/api/system/class')
      return [
        { id: 4, name: '初一(1)班' },
        { id: 5, name: '初一(2)班' },
      ];
    if (/^\/api\/classes\/\d+\/students$/.test(url)) return [];
    if (url === '/api/homework') {
      const list = params?.status ? rows.filter((r) => r.status === params.status) : rows;
      return { list, total: list.length, page: params?.page ?? 1, pageSize: params?.pageSize ?? 10 };
    }
    throw new Error(`unexpected ${url}`);
  });
  renderWithPapers(<PaperListPage />, fake.http, '/paperlist', extra);
  return fake;
}

const homeworkQueries = (get: ReturnType<typeof fakeHttp>['get']) =>
  get.mock.calls.filter(([url]) => url === '/api/homework').map(([, params]) => params);

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  const picker = screen.getByRole('combobox', { name: label });
  await user.click(picker.querySelector('.semi-select-selection-text') ?? picker);
  await user.click(await screen.findByRole('option', { name: new RegExp(`(^|\\s)${option.replace(/[()]/g, '\\$&')}$`) }));
}

// The page's lazily loaded parts (tabs, dialogs, the table), loaded once before the tests as a browser's
// cache would hold them: transforming them on first use can outlast a test's wait on a busy machine.
beforeAll(async () => {
  await Promise.all([
    import('../../../src/features/papers/answer-sheet-dialog'),
    import('../../../src/features/papers/roster-dialog'),
    import('../../../src/shared/ui/table-chunk'),
  ]);
}, 60_000);

describe('/paperlist', () => {
  it("lists the school year's homework with its classes, dates and status", async () => {
    renderList();
    expect(await screen.findByText('作业1')).toBeInTheDocument();
    expect(screen.getByText('期中复习')).toBeInTheDocument();
    expect(screen.getAllByText('2026-11-01 至 2026-11-08')).toHaveLength(2);
    expect(screen.getByText('已完成')).toBeInTheDocument();
  });

  it('asks the server again from page 1 with the chosen status, subject and class', async () => {
    const fake = renderList();
    await screen.findByText('作业1');
    expect(homeworkQueries(fake.get).at(-1)).toEqual({ page: 1, pageSize: 10, schoolYearId: 1 });
    await choose('状态', '已完成');
    await waitFor(() =>
      expect(homeworkQueries(fake.get).at(-1)).toEqual({ page: 1, pageSize: 10, schoolYearId: 1, status: 'finished' }),
    );
    expect(await screen.findByText('期中复习')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('作业1')).not.toBeInTheDocument());
    await choose('学科', '语文');
    await choose('班级', '初一(2)班');
    await waitFor(() =>
      expect(homeworkQueries(fake.get).at(-1)).toEqual({
        page: 1,
        pageSize: 10,
        schoolYearId: 1,
        status: 'finished',
        subjectId: 2,
        classId: 5,
      }),
    );
    // Three Semi selects in a row: slow on a busy machine.
  }, 15_000);

  it('downloads the paper as Word under the homework title', async () => {
    const fake = renderList();
    const row = (await screen.findByText('作业1')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '下载 Word' }));
    expect(fake.download).toHaveBeenCalledWith('/api/papers/101/docx', { withAnswers: false }, '作业1.docx');
  });

  it("leads 分析 to the homework's own analysis (/assistant)", async () => {
    renderList();
    const row = (await screen.findByText('作业1')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '分析' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/assistant/analysis?homeworkId=1');
  });

  it('shows the answer sheet as it will print beside the print choices', async () => {
    renderList(undefined, { renderAnswerSheetPreview: (id) => <p>答题卡预览 {id}</p> });
    const row = (await screen.findByText('作业1')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '打印答题卡' }));
    const dialog = await screen.findByRole('dialog', { name: '打印答题卡' });
    expect(within(dialog).getByText('答题卡预览 1')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: '每位学生一张' })).toBeInTheDocument();
    // The calibration page the hint names is one click away.
    expect(within(dialog).getByRole('link', { name: '“打印测试”页' })).toHaveAttribute('href', '/pringtingtest');
  });

  it('opens the roster (loaded after the list) from 学生花名册', async () => {
    renderList();
    await screen.findByText('作业1');
    await userEvent.click(screen.getByRole('button', { name: '学生花名册' }));
    const dialog = await screen.findByRole('dialog', { name: '学生花名册' });
    expect(within(dialog).getByRole('combobox', { name: '花名册班级' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /导入花名册/ })).toBeInTheDocument();
  });

  it('assigns a draft homework with 布置 and shows the list again from the server', async () => {
    const fake = renderList([homework(1, { status: 'draft' }), homework(2)]);
    const row = (await screen.findByText('作业1')).closest('tr')!;
    expect(within((await screen.findByText('作业2')).closest('tr')!).queryByRole('button', { name: '布置' })).toBeNull();
    // A draft is given to no class yet: nothing to scan, mark or analyse, but it can be edited.
    for (const name of ['打印答题卡', '扫描', '阅卷', '分析']) expect(within(row).queryByRole('button', { name })).toBeNull();
    expect(within(row).getByRole('button', { name: '编辑试卷' })).toBeInTheDocument();
    const listed = homeworkQueries(fake.get).length;
    await userEvent.click(within(row).getByRole('button', { name: '布置' }));
    await waitFor(() =>
      expect(fake.patchJson).toHaveBeenCalledWith('/api/homework/1/status', { status: 'assigned' }, expect.anything()),
    );
    await waitFor(() => expect(homeworkQueries(fake.get).length).toBeGreaterThan(listed));
  });

  it('invites the teacher to compose a paper when there is no homework yet', async () => {
    renderList([]);
    expect(await screen.findByText('2026级 (初一)还没有作业')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '去组卷' })).toBeInTheDocument();
  });

  it('says nothing matches, rather than "no homework", when a filter empties the list', async () => {
    renderList([homework(1)]);
    await screen.findByText('作业1');
    await choose('状态', '草稿');
    expect(await screen.findByText('没有符合条件的作业')).toBeInTheDocument();
  });
});
