import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '@douyinfe/semi-ui-19';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_ASSIGNABLE_CLASS } from '../../../src/features/papers/assign-homework-fields';
import { EditPage } from '../../../src/features/papers/pages/edit-page';
import { PaperListPage } from '../../../src/features/papers/pages/paperlist-page';
import type { PaperSummary } from '../../../src/shared/contract/papers';
import { fakeHttp, renderWithPapers } from './papers-test-kit';

function summary(id: number, overrides: Partial<PaperSummary> = {}): PaperSummary {
  return {
    id,
    title: `试卷${id}`,
    subject: { id: 1, name: '数学' },
    schoolYear: { id: 1, name: '2026级 (初一)' },
    paperSize: 'A4',
    totalScore: 100,
    questionCount: 20,
    createdBy: { id: 1, name: '王老师' },
    mine: true,
    homeworkCount: 0,
    createdAt: '2026-11-20T08:00:00.000Z',
    sharedAt: null,
    sharedChapter: null,
    ...overrides,
  };
}

function renderPapers(rows: PaperSummary[], assignable = [{ id: 4, name: '初一(1)班' }]) {
  const fake = fakeHttp((url, params) => {
    if (url === '/api/papers') {
      const keyword = typeof params?.keyword === 'string' ? params.keyword : '';
      const list = rows.filter((r) => r.title.includes(keyword));
      return { list, total: list.length, page: 1, pageSize: 10 };
    }
    if (url === '/api/homework/assignable-classes') return assignable;
    throw new Error(`unexpected ${url}`);
  });
  renderWithPapers(<PaperListPage />, fake.http, '/paperlist?tab=papers');
  return fake;
}

const paperQueries = (get: ReturnType<typeof fakeHttp>['get']) =>
  get.mock.calls.filter(([url]) => url === '/api/papers').map(([, params]) => params);

afterEach(() => Modal.destroyAll());

// The page's lazily loaded parts (tabs, dialogs, the table), loaded once before the tests as a browser's
// cache would hold them: transforming them on first use can outlast a test's wait on a busy machine.
beforeAll(async () => {
  await Promise.all([import('../../../src/features/papers/my-papers'), import('../../../src/shared/ui/table-chunk')]);
}, 60_000);

describe('我的试卷 tab of /paperlist', () => {
  it('lists my saved papers, assigned or not', async () => {
    const fake = renderPapers([summary(1, { title: '未布置的试卷' }), summary(2, { homeworkCount: 2 })]);
    const table = (await screen.findByText('未布置的试卷')).closest('table')!;
    expect(within(table).getByText('未布置的试卷')).toBeInTheDocument();
    expect(within(table).getByText('未布置')).toBeInTheDocument();
    expect(within(table).getByText('已布置 2 次')).toBeInTheDocument();
    expect(paperQueries(fake.get)[0]).toEqual({ scope: 'mine', page: 1, pageSize: 10 });
  });

  it('searches by title', async () => {
    const fake = renderPapers([summary(1, { title: '有理数单元练习' }), summary(2, { title: '期中复习' })]);
    await screen.findByText('期中复习');
    await userEvent.type(screen.getByRole('textbox', { name: '试卷名称' }), '有理数');
    await userEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(screen.queryByText('期中复习')).not.toBeInTheDocument());
    expect(paperQueries(fake.get).at(-1)).toEqual({ scope: 'mine', page: 1, pageSize: 10, keyword: '有理数' });
  });

  it('deletes my own unused paper after asking, and offers no delete for a used or a colleague’s paper', async () => {
    const fake = renderPapers([
      summary(1, { title: '可以删除' }),
      summary(2, { title: '已布置', homeworkCount: 1 }),
      summary(3, { title: '同事的', mine: false, createdBy: { id: 9, name: '李主任' } }),
    ]);
    const row = (title: string) => screen.getByText(title).closest('tr')!;
    await screen.findByText('可以删除');
    expect(within(row('已布置')).getByRole('button', { name: '删除' })).toBeDisabled();
    expect(within(row('同事的')).queryByRole('button', { name: /删除/ })).toBeNull();
    expect(within(row('同事的')).queryByRole('button', { name: '编辑' })).toBeNull();
    await userEvent.click(within(row('可以删除')).getByRole('button', { name: '删除：可以删除' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('删除「可以删除」？')).toBeInTheDocument();
    // Named 删除 by AppProviders in the app (Semi labels it "confirm"); here found by its text.
    await userEvent.click(within(confirm).getByText('删除').closest('button')!);
    await waitFor(() => expect(fake.deleteQuery).toHaveBeenCalledWith('/api/papers/1'));
  });

  it('assigns a paper to the classes the server says the teacher may assign it to', async () => {
    const fake = renderPapers(
      [summary(1, { title: '周测' })],
      [
        { id: 4, name: '初一(1)班' },
        { id: 6, name: '初一(3)班' },
      ],
    );
    const row = (await screen.findByText('周测')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '布置' }));
    const dialog = (await screen.findByText(/^把「周测」/)).closest<HTMLElement>('[role="dialog"]')!;
    await userEvent.click(within(dialog).getByRole('button', { name: '布置作业' }));
    expect(await within(dialog).findByText('请至少选择一个班级')).toBeInTheDocument();
    const picker = within(dialog).getByRole('combobox', { name: '布置班级' });
    await userEvent.click(picker);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['初一(1)班', '初一(3)班']);
    expect(fake.get).toHaveBeenCalledWith('/api/homework/assignable-classes', { paperId: 1 }, expect.anything());
    expect(fake.get.mock.calls.some(([url]) => url === '/api/system/class')).toBe(false);
    await userEvent.click(await screen.findByRole('option', { name: /初一\(1\)班/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: '布置作业' }));
    await waitFor(() =>
      expect(fake.postJson).toHaveBeenCalledWith(
        '/api/homework',
        expect.objectContaining({ paperId: 1, classIds: [4] }),
        expect.anything(),
      ),
    );
  });

  it('says so when the teacher may assign the paper to no class', async () => {
    renderPapers([summary(1, { title: '周测' })], []);
    const row = (await screen.findByText('周测')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: '布置' }));
    const dialog = (await screen.findByText(/^把「周测」/)).closest<HTMLElement>('[role="dialog"]')!;
    expect(await within(dialog).findByText(NO_ASSIGNABLE_CLASS)).toBeInTheDocument();
  });
});

describe('a teacher without a school', () => {
  const noSchool = { orgId: null, schoolYearId: null, schoolYearName: null };

  it.each([
    ['/paperlist', <PaperListPage key="list" />],
    ['/edit', <EditPage key="edit" />],
  ])('sees on %s how to join a school, and nothing is asked of the server', async (route, page) => {
    const fake = fakeHttp((url) => {
      throw new Error(`unexpected ${url}`);
    });
    renderWithPapers(page, fake.http, route, { user: noSchool });
    expect(await screen.findByText('您还没有加入学校')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '创建学校' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '使用邀请链接或邀请码加入' })).toBeInTheDocument();
    expect(fake.get).not.toHaveBeenCalled();
  });
});
