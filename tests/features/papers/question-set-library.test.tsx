import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '@douyinfe/semi-ui-19';
import { Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchoolMaterialsPage } from '../../../src/features/papers/pages/school-materials-page';
import type { QuestionSetDetail, QuestionSetSummary } from '../../../src/shared/contract/question-sets';
import { fakeHttp, question, renderWithPapers } from './papers-test-kit';

function summary(id: number, overrides: Partial<QuestionSetSummary> = {}): QuestionSetSummary {
  return {
    id,
    name: `合集${id}`,
    description: '',
    subject: { id: 1, name: '数学' },
    schoolYear: { id: 1, name: '2026级 (初一)' },
    chapter: { id: 11, name: '第一章 有理数' },
    questionCount: 2,
    createdBy: { id: 2, name: '李主任' },
    mine: false,
    canEdit: false,
    createdAt: '2026-11-20T08:00:00.000Z',
    updatedAt: '2026-11-20T08:00:00.000Z',
    sharedAt: '2026-11-21T08:00:00.000Z',
    ...overrides,
  };
}

function detail(set: QuestionSetSummary): QuestionSetDetail {
  return {
    ...set,
    questions: [question(7, 'single', { stem: '<p>$-\\frac{2}{3}$ 的相反数是</p>' }), question(8, 'blank', { shared: false })],
  };
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderSets(rows: QuestionSetSummary[]) {
  const fake = fakeHttp((url, params) => {
    if (url === '/api/question-sets') {
      const list = rows.filter((r) => (params?.scope === 'mine' ? r.mine : r.sharedAt !== null));
      return { list, total: list.length, page: 1, pageSize: 10 };
    }
    const one = /^\/api\/question-sets\/(\d+)$/.exec(url);
    if (one) return detail(rows.find((r) => r.id === Number(one[1]))!);
    if (url === '/api/subjects') return [{ id: 1, name: '数学', questionCount: 10 }];
    if (url === '/api/system/class') return [{ id: 1, name: '2026级 (初一)' }];
    if (url.endsWith('/chapters')) return [];
    if (url.endsWith('/knowledge-points')) return [{ id: 21, name: '相反数', children: [] }];
    throw new Error(`unexpected ${url}`);
  });
  fake.postJson.mockImplementation(async (url: string) => {
    if (url.endsWith('/copy')) return detail(summary(500, { name: '合集1（副本）', mine: true, sharedAt: null }));
    throw new Error(`unexpected post to ${url}`);
  });
  const putJson = vi.fn(async (url: string, body: { name: string }) => {
    const id = Number(/(\d+)$/.exec(url)?.[1]);
    return detail(summary(id, { ...rows.find((r) => r.id === id), name: body.name }));
  });
  Object.assign(fake.http, { putJson });
  renderWithPapers(
    <Routes>
      <Route path="/schoolmaterials" element={<SchoolMaterialsPage />} />
      <Route path="/edit" element={<Where />} />
    </Routes>,
    fake.http,
    '/schoolmaterials?tab=sets',
  );
  return { ...fake, putJson };
}

const setQueries = (get: ReturnType<typeof fakeHttp>['get']) =>
  get.mock.calls.filter(([url]) => url === '/api/question-sets').map(([, params]) => params);

afterEach(() => Modal.destroyAll());

describe('校本资料 · 题目合集', () => {
  // The tab is a lazy chunk: loaded once here, so a slow machine does not spend a test's wait on it.
  beforeAll(async () => {
    await import('../../../src/features/papers/question-set-library');
  }, 30_000);

  it('lists shared sets with chapter, who made them and when; a colleague reads, copies and composes', async () => {
    const fake = renderSets([summary(1, { name: '有理数易错题', knowledgePoint: { id: 21, name: '相反数' } })]);
    const row = (await screen.findByText('有理数易错题')).closest('tr')!;
    expect(within(row).getByText('第一章 有理数')).toBeInTheDocument();
    expect(within(row).getByText('知识点：相反数')).toBeInTheDocument();
    expect(within(row).getByText('李主任')).toBeInTheDocument();
    expect(within(row).getByText('2026-11-21')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /编辑|删除|撤回|移除/ })).toBeNull();
    expect(setQueries(fake.get)[0]).toEqual({ scope: 'shared', page: 1, pageSize: 10 });

    await userEvent.click(within(row).getByRole('button', { name: '复制到我的题目合集：有理数易错题' }));
    await waitFor(() => expect(fake.postJson).toHaveBeenCalledWith('/api/question-sets/1/copy', {}, expect.anything()));

    // The set's questions, typeset (KaTeX, which loads with the first formula shown), the school's own
    // marked 本校题.
    await userEvent.click(within(row).getByRole('button', { name: '查看：有理数易错题' }));
    const dialog = await screen.findByRole('dialog');
    const first = await within(dialog).findByLabelText('第 1 题');
    await waitFor(() => expect(first.querySelector('.katex')).not.toBeNull());
    expect(within(dialog).getByText('本校题')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /移出合集/ })).toBeNull();

    await userEvent.click(within(dialog).getByRole('button', { name: '用此合集组卷' }));
    expect(await screen.findByTestId('where')).toHaveTextContent('/edit?questionSet=1');
  });

  it('lets the owner edit a set (its questions kept) and shows their unshared sets under 我的题目合集', async () => {
    const fake = renderSets([
      summary(1, { name: '我的合集', mine: true, canEdit: true, createdBy: { id: 1, name: '王老师' } }),
      summary(2, { name: '草稿', mine: true, canEdit: true, sharedAt: null }),
    ]);
    const row = (await screen.findByText('我的合集')).closest('tr')!;
    expect(within(row).getByRole('button', { name: '撤回：我的合集' })).toBeInTheDocument();
    expect(screen.queryByText('草稿')).toBeNull();

    await userEvent.click(within(row).getByRole('button', { name: '编辑：我的合集' }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByRole('textbox', { name: '合集名称' });
    expect(field).toHaveValue('我的合集');
    await userEvent.clear(field);
    await userEvent.type(field, '有理数精选');
    await userEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(fake.putJson).toHaveBeenCalledWith(
        '/api/question-sets/1',
        expect.objectContaining({ name: '有理数精选', questionIds: [7, 8], chapterId: 11, schoolYearId: 1 }),
        expect.anything(),
      ),
    );

    await userEvent.click(screen.getByRole('radio', { name: '我的题目合集' }));
    expect(await screen.findByText('草稿')).toBeInTheDocument();
    expect(setQueries(fake.get).at(-1)).toMatchObject({ scope: 'mine' });
    const draft = screen.getByText('草稿').closest('tr')!;
    expect(within(draft).getByText('未共享')).toBeInTheDocument();
    expect(within(draft).getByRole('button', { name: '共享：草稿' })).toBeInTheDocument();
  });

  it('filters by a knowledge point once a subject is chosen', async () => {
    const fake = renderSets([summary(1)]);
    await screen.findByText('合集1');
    expect(screen.queryByRole('combobox', { name: '知识点' })).toBeNull();
    await userEvent.click(screen.getByRole('combobox', { name: '学科' }));
    await userEvent.click(await screen.findByRole('option', { name: /数学$/ }));
    await userEvent.click(await screen.findByRole('combobox', { name: '知识点' }));
    await userEvent.click(await screen.findByRole('option', { name: /相反数$/ }));
    await waitFor(() => expect(setQueries(fake.get).at(-1)).toMatchObject({ subjectId: 1, knowledgePointId: 21, page: 1 }));
  });
});
