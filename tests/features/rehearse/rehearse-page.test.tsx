/**
 * /rehearse on a fake server: the class view's most-missed list with its score rate and error causes,
 * filtering by cause, a student's book opening on what is still to redo with the answer beside the key,
 * setting an error cause, the 时间范围 picker shared with the analysis pages, and 错因设置's dialog.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { RehearsePage } from '../../../src/features/rehearse/pages/rehearse-page';
import { RehearseServicesProvider } from '../../../src/features/rehearse/rehearse-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { ClassBook, RehearseOptions, StudentBook } from '../../../src/shared/contract/rehearse';

const OPTIONS: RehearseOptions = {
  schoolYears: [{ id: 1, name: '2026级 (初一)' }],
  classes: [{ id: 4, name: '初一(1)班', schoolYearId: 1, subjectIds: null }],
  subjects: [{ id: 2, name: '数学' }],
  errorCauses: ['审题', '计算'],
  subjectiveWrongPercent: 100,
  canManage: false,
};
const CLASS: ClassBook = {
  klass: { id: 4, name: '初一(1)班' },
  students: [{ id: 41, name: '张三', code: '2026010141', open: 1, mastered: 1 }],
  questions: [
    {
      questionId: 7,
      subjectId: 2,
      type: 'single',
      stem: '下列数中最小的是',
      knowledgePoints: ['有理数'],
      missedBy: 12,
      open: 10,
      mastered: 2,
      timesWrong: 14,
      scoreRate: 0.4,
      attempts: 40,
      causes: [{ cause: '审题', count: 12 }],
    },
    {
      questionId: 8,
      subjectId: 2,
      type: 'subjective',
      stem: '计算 $1+1$',
      knowledgePoints: [],
      missedBy: 3,
      open: 3,
      mastered: 0,
      timesWrong: 3,
      scoreRate: 0.8,
      attempts: 40,
      causes: [{ cause: '计算', count: 3 }],
    },
  ],
  causes: [
    { cause: '审题', count: 12 },
    { cause: '计算', count: 3 },
  ],
  knowledgePoints: [{ id: 1, name: '有理数' }],
  chapters: [],
};
const entry = (id: number, mastery: 'pending' | 'mastered') => ({
  id,
  questionId: id,
  subjectId: 2,
  type: 'single',
  stem: `第${id}题的题干`,
  options: ['-3', '0'],
  key: ['A'],
  analysis: '负数小于零',
  knowledgePoints: ['有理数'],
  mastery,
  timesWrong: 1,
  redoCount: 0,
  firstWrongOn: '2026-09-01',
  lastWrongOn: '2026-09-01',
  homework: { id: 3, name: '有理数练习' },
  questionNo: 1,
  answeredQuestionId: id,
  score: 0,
  fullScore: 2,
  errorCause: null,
  labels: ['B'],
  answerId: 99,
  hasImage: false,
});
const STUDENT: StudentBook = {
  student: { id: 41, name: '张三', code: '2026010141', classId: 4, className: '初一(1)班' },
  counts: { pending: 1, redo1: 0, redo2: 0, mastered: 1 },
  entries: [entry(7, 'pending'), entry(9, 'mastered')],
  knowledgePoints: [],
  chapters: [],
};

function setup({
  url = '/rehearse',
  options = OPTIONS,
  student = STUDENT,
}: { url?: string; options?: RehearseOptions; student?: StudentBook } = {}) {
  const get = vi.fn(async (url: string) => {
    if (url === '/api/rehearse/options') return options;
    if (url === '/api/rehearse/class') return CLASS;
    if (url === '/api/rehearse/student') return student;
    throw new Error(`unexpected ${url}`);
  });
  const putJson = vi.fn(async (_url: string, body: unknown) => body);
  const http = { get, putJson, downloadGet: vi.fn(), getBlob: vi.fn() } as unknown as HttpClient;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MemoryRouter initialEntries={[url]}>
      <QueryClientProvider client={client}>
        <RehearseServicesProvider services={{ http, schoolYearId: 1, RichText: ({ text }) => <span>{text}</span> }}>
          <RehearsePage />
        </RehearseServicesProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return { get, putJson };
}

// The page's lazily loaded parts (tabs, dialogs, the table), loaded once before the tests as a browser's
// cache would hold them: transforming them on first use can outlast a test's wait on a busy machine.
beforeAll(async () => {
  await Promise.all([import('../../../src/features/rehearse/set-maker'), import('../../../src/shared/ui/table-chunk')]);
}, 60_000);

describe('/rehearse', () => {
  it('lists the class’s most-missed questions with 得分率 and causes, and filters by cause', async () => {
    const { get } = setup();
    const list = await screen.findByRole('region', { name: '高频错题' });
    expect(await within(list).findByText('下列数中最小的是')).toBeInTheDocument();
    expect(within(list).getByText('40.0%')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/rehearse/class', { classId: 4, mastery: 'open' }, expect.anything());
    await userEvent.click(within(screen.getByRole('region', { name: '按错因' })).getByText('计算 3'));
    await waitFor(() => expect(within(list).queryByText('下列数中最小的是')).not.toBeInTheDocument());
    expect(within(list).getByText('计算 $1+1$')).toBeInTheDocument();
  });

  it('opens a student’s book on what is still to redo, the answer beside the key, and saves a cause', async () => {
    const { putJson } = setup();
    await userEvent.click(await screen.findByRole('button', { name: /张三/ }));
    const first = await screen.findByRole('article', { name: '错题 1' });
    expect(within(first).getByText('待重练')).toBeInTheDocument();
    expect(within(first).getByText('B')).toBeInTheDocument();
    expect(within(first).getByText('A')).toBeInTheDocument();
    expect(within(first).getByText('负数小于零')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: '错题 2' })).toHaveTextContent('已掌握');
    const picker = within(first).getByRole('combobox', { name: '错题 1 的错因' });
    await userEvent.click(picker.querySelector('.semi-select-selection') ?? picker);
    await userEvent.click(await screen.findByRole('option', { name: /计算/ }));
    await waitFor(() =>
      expect(putJson).toHaveBeenCalledWith('/api/rehearse/wrong-questions/7/cause', { errorCause: '计算' }, expect.anything()),
    );
  });

  it('filters by 时间范围 with the analysis pages’ range picker', { timeout: 20_000 }, async () => {
    const { get } = setup({ url: '/rehearse?from=2026-09-01&to=2026-09-30' });
    await screen.findByRole('region', { name: '高频错题' });
    expect(get).toHaveBeenCalledWith(
      '/api/rehearse/class',
      { classId: 4, from: '2026-09-01', to: '2026-09-30', mastery: 'open' },
      expect.anything(),
    );
    // One range picker (not two fields labelled 开始日期 / 结束日期), showing the URL's days once it has loaded.
    expect(screen.queryByLabelText('开始日期')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByPlaceholderText('开始日期')).toHaveValue('2026-09-01'), { timeout: 15_000 });
    expect(screen.getByPlaceholderText('结束日期')).toHaveValue('2026-09-30');
  });

  it('错因设置 opens with the school’s causes and saves them', { timeout: 20_000 }, async () => {
    const { putJson } = setup({ options: { ...OPTIONS, canManage: true } });
    await userEvent.click(await screen.findByRole('button', { name: '错因设置' }));
    // The dialog is loaded when the button is pressed: allow for a slow machine.
    const field = await screen.findByRole('textbox', { name: '错因' }, { timeout: 10_000 });
    expect(field).toHaveValue('审题、计算');
    await userEvent.type(field, '、步骤');
    const dialog = await screen.findByRole('dialog', { name: '错因设置' });
    // Semi labels its footer buttons confirm / cancel; the app renames them (chinese-aria-labels.ts), this test has no app.
    await userEvent.click(within(dialog).getByText('保存'));
    await waitFor(() =>
      expect(putJson).toHaveBeenCalledWith(
        '/api/rehearse/settings',
        { errorCauses: ['审题', '计算', '步骤'], subjectiveWrongPercent: 100 },
        expect.anything(),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('textbox', { name: '错因' })).not.toBeInTheDocument());
  });

  it('groups a student’s book by error cause', async () => {
    setup({
      url: '/rehearse?studentId=41',
      student: {
        ...STUDENT,
        entries: [
          { ...entry(7, 'pending'), errorCause: '审题' },
          { ...entry(9, 'pending'), errorCause: '计算' },
          { ...entry(11, 'pending'), errorCause: '审题' },
        ],
      },
    });
    const causes = await screen.findByRole('region', { name: '按错因' });
    expect(within(causes).getByText('审题 2')).toBeInTheDocument();
    await userEvent.click(within(causes).getByText('计算 1'));
    await waitFor(() => expect(screen.queryByRole('article', { name: '错题 2' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: '错题 1' })).toHaveTextContent('第9题的题干');
    await userEvent.click(within(causes).getByText('全部 3'));
    expect(await screen.findByRole('article', { name: '错题 3' })).toHaveTextContent('第11题的题干');
  });
});
