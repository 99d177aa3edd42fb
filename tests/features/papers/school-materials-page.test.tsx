import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '@douyinfe/semi-ui-19';
import { afterEach, describe, expect, it } from 'vitest';
import { SchoolMaterialsPage } from '../../../src/features/papers/pages/school-materials-page';
import type { PaperSummary } from '../../../src/shared/contract/papers';
import { fakeHttp, renderWithPapers } from './papers-test-kit';

function material(id: number, overrides: Partial<PaperSummary> = {}): PaperSummary {
  return {
    id,
    title: `资料${id}`,
    subject: { id: 1, name: '数学' },
    schoolYear: { id: 1, name: '2026级 (初一)' },
    paperSize: 'A4',
    totalScore: 100,
    questionCount: 20,
    createdBy: { id: 2, name: '李主任' },
    mine: false,
    homeworkCount: 0,
    createdAt: '2026-11-20T08:00:00.000Z',
    sharedAt: '2026-11-21T08:00:00.000Z',
    sharedChapter: { id: 11, name: '第一章 有理数' },
    ...overrides,
  };
}

function renderMaterials(rows: PaperSummary[], canRemoveAny = false) {
  const fake = fakeHttp((url, params) => {
    if (url === '/api/school-materials') {
      const keyword = typeof params?.keyword === 'string' ? params.keyword : '';
      const list = rows.filter((r) => r.title.includes(keyword));
      return { list, total: list.length, page: 1, pageSize: 10, canRemoveAny };
    }
    if (url === '/api/subjects') return [{ id: 1, name: '数学', questionCount: 10 }];
    if (url === '/api/system/class') return [{ id: 1, name: '2026级 (初一)' }];
    throw new Error(`unexpected ${url}`);
  });
  fake.postJson.mockImplementation(async (url: string) => {
    if (url.endsWith('/copy')) return { id: 500, title: '资料1（副本）' };
    throw new Error(`unexpected post to ${url}`);
  });
  renderWithPapers(<SchoolMaterialsPage />, fake.http, '/schoolmaterials');
  return fake;
}

const materialQueries = (get: ReturnType<typeof fakeHttp>['get']) =>
  get.mock.calls.filter(([url]) => url === '/api/school-materials').map(([, params]) => params);

afterEach(() => Modal.destroyAll());

describe('/schoolmaterials (校本资料)', () => {
  it('lists shared papers with chapter, who shared them and when; searches; copies to my papers', async () => {
    const fake = renderMaterials([
      material(1, { title: '有理数单元练习' }),
      material(2, { title: '期中复习', sharedChapter: null }),
    ]);
    const row = (await screen.findByText('有理数单元练习')).closest('tr')!;
    expect(within(row).getByText('第一章 有理数')).toBeInTheDocument();
    expect(within(row).getByText('李主任')).toBeInTheDocument();
    expect(within(row).getByText('2026-11-21')).toBeInTheDocument();
    // A colleague's item, no admin rights: no 移除 or 撤回.
    expect(within(row).queryByRole('button', { name: /移除|撤回/ })).toBeNull();
    expect(materialQueries(fake.get)[0]).toEqual({ page: 1, pageSize: 10 });

    await userEvent.click(within(row).getByRole('button', { name: '复制到我的试卷' }));
    await waitFor(() => expect(fake.postJson).toHaveBeenCalledWith('/api/papers/1/copy', {}, expect.anything()));

    await userEvent.type(screen.getByRole('textbox', { name: '试卷名称' }), '有理数');
    await userEvent.click(screen.getByRole('button', { name: '搜索' }));
    await waitFor(() => expect(screen.queryByText('期中复习')).not.toBeInTheDocument());
    expect(materialQueries(fake.get).at(-1)).toEqual({ page: 1, pageSize: 10, keyword: '有理数' });
  });

  it('lets the owner withdraw their item and an admin remove a colleague’s', async () => {
    const fake = renderMaterials(
      [
        material(1, { title: '我的资料', mine: true, createdBy: { id: 1, name: '王老师' } }),
        material(2, { title: '同事的资料' }),
      ],
      true,
    );
    const row = (title: string) => screen.getByText(title).closest('tr')!;
    await screen.findByText('我的资料');
    expect(within(row('同事的资料')).getByRole('button', { name: '移除：同事的资料' })).toBeInTheDocument();
    await userEvent.click(within(row('我的资料')).getByRole('button', { name: '撤回：我的资料' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByText('从校本资料撤回「我的资料」？')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByText('撤回').closest('button')!);
    await waitFor(() => expect(fake.deleteQuery).toHaveBeenCalledWith('/api/papers/1/share'));
  });

  it('says how to fill an empty library', async () => {
    renderMaterials([]);
    expect(await screen.findByText('校本资料还是空的')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '去我的试卷' })).toBeInTheDocument();
  });
});
