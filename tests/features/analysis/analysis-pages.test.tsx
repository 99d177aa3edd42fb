/**
 * Component tests of the analysis pages' states (loading, empty, error, data), the data centre's
 * refusal for non-directors, the commentary's anonymity and arrow keys, and the Excel export carrying
 * the figures the page shows.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExcelJS from 'exceljs';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AnalysisServicesProvider } from '../../../src/features/analysis/analysis-services';
import { CommentaryPage } from '../../../src/features/analysis/pages/commentary-page';
import { AverageScorePage, SubjectStatsPage } from '../../../src/features/analysis/pages/data-center-pages';
import { HomeworkAnalysisPage } from '../../../src/features/analysis/pages/homework-analysis-page';
import { OverviewPage } from '../../../src/features/analysis/pages/overview-page';
import { PersonPage } from '../../../src/features/analysis/pages/person-page';
import type { AnalysisOptions, HomeworkAnalysis } from '../../../src/shared/contract/analysis';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import { analyseHomework, type AnalysisQuestion } from '../../../src/shared/lib/analysis-stats';

const OPTIONS: AnalysisOptions = {
  schoolYears: [{ id: 1, name: '2026级 (初一)', ranksAllowed: false, ranksEnabled: null }],
  subjects: [{ id: 2, name: '数学' }],
  classes: [{ id: 4, name: '初一(1)班', schoolYearId: 1 }],
  homework: [{ id: 3, title: '有理数练习', subjectId: 2, schoolYearId: 1, startDate: '2026-09-01', classIds: [4], scored: true }],
  gradeDirector: false,
};

const QUESTIONS: AnalysisQuestion[] = [
  { no: 1, type: 'single', full: 2, key: ['A'], options: ['A', 'B', 'C', 'D'] },
  { no: 2, type: 'subjective', full: 4 },
];
const STUDENTS = [
  { studentId: 41, classId: 4, name: '张三', scores: [2, 4], labels: [['A'], null] },
  { studentId: 42, classId: 4, name: '李四', scores: [0, 1], labels: [['B'], null] },
  { studentId: 43, classId: 4, name: '王五', scores: [null, null], labels: [null, null] },
];

/** This school year and subject's own lines (学校设置 · 各学年学科分数线), not the defaults. */
const LINES = { excellent: 0.925, good: 0.8, pass: 0.7, low: 0.5 };

function homeworkAnalysis(): HomeworkAnalysis {
  const stats = analyseHomework(QUESTIONS, STUDENTS, { lines: LINES });
  const { full, participation, totals, scoreRate, levels, bands, gradeBands, reliability } = stats;
  const summary = { full, participation, totals, scoreRate, levels, bands, gradeBands, reliability };
  return {
    homework: {
      id: 3,
      title: '有理数练习',
      subjectId: 2,
      subjectName: '数学',
      startDate: '2026-09-01',
      dueDate: '2026-09-03',
      status: 'finished',
    },
    classes: [{ id: 4, name: '初一(1)班' }],
    classId: null,
    ranksAllowed: false,
    lines: LINES,
    summary,
    gradeSummary: summary,
    classSummaries: [{ classId: 4, name: '初一(1)班', summary }],
    questions: stats.questions.map((q, i) => ({
      ...q,
      stem: i === 0 ? '下列数中最小的是' : '计算并说明理由',
      optionTexts: i === 0 ? ['-3', '0', '1', '2'] : [],
      key: i === 0 ? ['A'] : ['略'],
      knowledgePoints: [],
    })),
    knowledgePoints: stats.knowledgePoints,
    students: STUDENTS.map((s) => {
      const st = stats.students.find((x) => x.studentId === s.studentId);
      return {
        studentId: s.studentId,
        name: s.name,
        code: `20260101${s.studentId}`,
        classId: 4,
        className: '初一(1)班',
        absent: !st,
        status: st ? ('complete' as const) : ('absent' as const),
        total: st?.total ?? null,
        band: st?.band ?? null,
        right: st?.right ?? 0,
        wrong: st?.wrong ?? 0,
        blank: st?.blank ?? 0,
        classRank: null,
        rank: null,
        scores: s.scores,
        labels: s.labels,
        answerIds: s.scores.map(() => null),
        hasImage: s.scores.map(() => false),
      };
    }),
  };
}

type Handler = (url: string, params?: Record<string, unknown>) => unknown;

function renderPage(page: ReactNode, path: string, handler: Handler, saveFile = vi.fn()) {
  const get = vi.fn(async (url: string, params?: Record<string, unknown>) => handler(url, params));
  const http = { get, getBlob: vi.fn() } as unknown as HttpClient;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AnalysisServicesProvider services={{ http, schoolYearId: 1, saveFile }}>
        <MemoryRouter initialEntries={[path]}>{page}</MemoryRouter>
      </AnalysisServicesProvider>
    </QueryClientProvider>,
  );
  return { get, saveFile };
}

const serve =
  (overrides: Record<string, unknown> = {}) =>
  (url: string) => {
    const table: Record<string, unknown> = {
      '/api/analysis/options': OPTIONS,
      '/api/analysis/homework/3': homeworkAnalysis(),
      ...overrides,
    };
    if (!(url in table)) throw new Error(`unexpected ${url}`);
    const value = table[url];
    if (value instanceof Error) throw value;
    return value;
  };

describe('数据分析 (one homework)', () => {
  it('shows a loading state while the figures are computed', () => {
    renderPage(<HomeworkAnalysisPage />, '/assistant/analysis?homeworkId=3', () => new Promise(() => undefined));
    expect(screen.getByText('正在计算…')).toBeInTheDocument();
  });

  it('shows an error state when the server fails', async () => {
    renderPage(
      <HomeworkAnalysisPage />,
      '/assistant/analysis?homeworkId=3',
      serve({ '/api/analysis/homework/3': new Error('boom') }),
    );
    expect(await screen.findByText('加载失败')).toBeInTheDocument();
  });

  it('opened from a link, shows the homework under its own subject (not its id under the first subject)', async () => {
    const chinese = {
      ...homeworkAnalysis(),
      homework: { ...homeworkAnalysis().homework, id: 5, title: '名著导读', subjectId: 3 },
    };
    renderPage(
      <HomeworkAnalysisPage />,
      '/assistant/analysis?homeworkId=5',
      serve({
        '/api/analysis/options': {
          ...OPTIONS,
          subjects: [...OPTIONS.subjects, { id: 3, name: '语文' }],
          homework: [
            ...OPTIONS.homework,
            { id: 5, title: '名著导读', subjectId: 3, schoolYearId: 1, startDate: '2026-11-24', classIds: [4], scored: false },
          ],
        },
        '/api/analysis/homework/5': chinese,
      }),
    );
    expect(await screen.findByText('名著导读（2026-11-24）')).toBeInTheDocument();
    expect(screen.getByText('语文')).toBeInTheDocument();
  });

  it('shows an empty state when there is no homework to analyse', async () => {
    renderPage(<HomeworkAnalysisPage />, '/assistant/analysis', serve({ '/api/analysis/options': { ...OPTIONS, homework: [] } }));
    expect(await screen.findByText('暂无可分析的作业')).toBeInTheDocument();
    expect(screen.getByText('您任教班级的作业扫描、批阅后，会在这里显示分析和讲评。')).toBeInTheDocument();
  });

  it('shows the figures, absent students apart, and exports the same figures to Excel', async () => {
    const { saveFile } = renderPage(<HomeworkAnalysisPage />, '/assistant/analysis?homeworkId=3', serve());
    // 2 of 3 took part; mean (6 + 1) / 2 = 3.5; 得分率 3.5 / 6 = 58.3%
    expect(await screen.findByText('2 / 3')).toBeInTheDocument();
    expect(screen.getByText('未参考 1 人 · 参试率 66.7%')).toBeInTheDocument();
    expect(screen.getAllByText('3.5').length).toBeGreaterThan(0);
    expect(screen.getAllByText('58.3%').length).toBeGreaterThan(0);
    // 优秀率 / 良好率 / 及格率 / 低分率 to 0.1 %, as the class table, the Excel and the Word report write them.
    for (const phrase of ['优秀率 50.0%', '良好率 50.0%', '低分率 50.0%']) expect(screen.getByText(phrase)).toBeInTheDocument();
    expect(screen.getAllByText('50.0%').length).toBeGreaterThan(0);
    // The tooltip of the 及格率 card names the lines the server resolved for this homework.
    await userEvent.hover(screen.getAllByText('及格率')[0]!);
    expect(
      await screen.findByText(
        '优秀率 / 良好率 / 及格率 / 低分率：总分分别 ≥92.5% / ≥80% / ≥70% / <50% 满分的人数 ÷ 参考人数（分数线见学校设置）',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /导出 Excel/ }));
    await waitFor(() => expect(saveFile).toHaveBeenCalled(), { timeout: 20_000 });
    const [blob, name] = saveFile.mock.calls[0]! as [Blob, string];
    expect(name).toBe('有理数练习-数据分析.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await blob.arrayBuffer());
    const rows = new Map<string, unknown>();
    workbook.getWorksheet('概况')!.eachRow((row) => rows.set(String(row.getCell(1).value), row.getCell(2).value));
    expect(rows.get('参考人数')).toBe(2);
    expect(rows.get('未参考人数')).toBe(1);
    // Figures are numbers a spreadsheet sums, shown as the page shows them: 3.5, 58.3%.
    const formats = new Map<string, string>();
    workbook.getWorksheet('概况')!.eachRow((row) => formats.set(String(row.getCell(1).value), row.getCell(2).numFmt));
    expect(rows.get('平均分')).toBe(3.5);
    expect(formats.get('平均分')).toBe('0.0');
    expect(rows.get('得分率')).toBe(0.583);
    expect(formats.get('得分率')).toBe('0.0%');
    expect(rows.get('分数线')).toBe('优秀 ≥92.5% · 良好 ≥80% · 及格 ≥70% · 低分 <50%');
    const students = workbook.getWorksheet('学生成绩')!;
    // 王五 is 缺考: named so, with no 对 / 错 / 未作答 counts (never 0).
    expect(students.getRow(4).getCell(4).value).toBe('缺考');
    expect([6, 7, 8].map((column) => students.getRow(4).getCell(column).value)).toEqual([null, null, null]);
  }, 40_000);
});

describe('作业讲评 (commentary)', () => {
  /** The server's rule: a projected view without names, names only when asked and the year allows them. */
  const projected =
    (ranksAllowed: boolean, asked: unknown[] = []) =>
    (url: string, params?: Record<string, unknown>) => {
      if (url !== '/api/analysis/homework/3') return serve()(url);
      asked.push(params?.projection);
      const full = { ...homeworkAnalysis(), ranksAllowed };
      if (params?.projection === 'named' && ranksAllowed) return full;
      if (params?.projection === 'named') throw new Error('该学年不允许在讲评中公开学生姓名');
      return { ...full, students: full.students.map((st) => ({ ...st, name: '', code: '' })) };
    };

  it('asks for the anonymous view, and offers no names where the school year does not allow them', async () => {
    const asked: unknown[] = [];
    renderPage(<CommentaryPage />, '/assistant/commentary?homeworkId=3', projected(false, asked));
    expect(await screen.findByText(/第 1 题/)).toBeInTheDocument();
    expect(screen.getByText('下列数中最小的是')).toBeInTheDocument();
    // 得分率 as 数据分析 and the report write it (1 of 2 right: 50.0%, not a rounder 50%).
    expect(screen.getByText('50.0%')).toBeInTheDocument();
    // 李四 answered B: a typical wrong answer, shown as 学生 A.
    expect(screen.getByText(/学生 A/)).toBeInTheDocument();
    expect(screen.queryByText(/李四/)).not.toBeInTheDocument();
    expect(asked).toEqual(['anonymous']);
    const toggle = screen.getByRole('switch', { name: '显示学生姓名' });
    expect(toggle).toBeDisabled();
    expect(screen.getByText('本学年不公开学生姓名（可在排名设置中开启）')).toBeInTheDocument();
    await userEvent.click(toggle);
    expect(asked).toEqual(['anonymous']);
    expect(screen.queryByText(/李四/)).not.toBeInTheDocument();
  }, 30_000);

  it('fetches names when the teacher turns them on for this showing, keeping the question, and steps with the arrow keys', async () => {
    const asked: unknown[] = [];
    renderPage(<CommentaryPage />, '/assistant/commentary?homeworkId=3', projected(true, asked));
    expect(await screen.findByText(/第 1 题/)).toBeInTheDocument();
    expect(screen.getByText(/学生 A/)).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    });
    expect(await screen.findByText('计算并说明理由')).toBeInTheDocument();
    const toggle = screen.getByRole('switch', { name: '显示学生姓名' });
    expect(toggle).not.toBeDisabled();
    await userEvent.click(toggle);
    // 李四 scored 1/4 on question 2: named once the named view arrives, still on question 2.
    expect(await screen.findByText(/李四 · 1\/4 分/)).toBeInTheDocument();
    expect(screen.getByText('计算并说明理由')).toBeInTheDocument();
    expect(asked).toEqual(['anonymous', 'named']);
    await userEvent.click(screen.getByRole('switch', { name: '显示学生姓名' }));
    await waitFor(() => expect(screen.queryByText(/李四/)).not.toBeInTheDocument());
    expect(screen.getByText(/学生 A · 1\/4 分/)).toBeInTheDocument();
  }, 30_000);
});

describe('数据中心', () => {
  it('tells a teacher who is not a grade director that they have no permission', async () => {
    const { get } = renderPage(<SubjectStatsPage />, '/dataCenter/subject', serve());
    expect(await screen.findByText('很抱歉，您暂无该操作权限')).toBeInTheDocument();
    expect(get).not.toHaveBeenCalledWith(expect.stringContaining('data-center'), expect.anything());
  });

  it('班级均分: a grade with no marked student has no difference to itself (—, never 0)', async () => {
    const empty = { participants: 0, mean: null, scoreRate: null, questionRates: [null, null] };
    renderPage(
      <AverageScorePage />,
      '/dataCenter/averageScore',
      serve({
        '/api/analysis/options': { ...OPTIONS, gradeDirector: true },
        '/api/analysis/data-center/average-score': {
          schoolYear: { id: 1, name: '2026级 (初一)' },
          homework: { id: 3, title: '有理数练习', full: 6 },
          classes: [
            { classId: 4, name: '初一(1)班', enrolled: 40, difference: null, ...empty },
            // A class with marks: its per-question 得分率 to 0.1 %, as in the Excel.
            {
              classId: 5,
              name: '初一(2)班',
              enrolled: 40,
              participants: 3,
              mean: 5,
              scoreRate: 0.625,
              difference: null,
              questionRates: [0.6111, 0.6667],
            },
          ],
          grade: { enrolled: 40, ...empty },
          questions: [
            { no: 1, full: 6, type: 'subjective' },
            { no: 2, full: 2, type: 'single' },
          ],
        },
      }),
    );
    await screen.findAllByText('0/40', undefined, { timeout: 10_000 });
    const grade = screen.getAllByText('年级', { selector: 'td' })[0]!.closest('tr')!;
    expect([...grade.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['年级', '0/40', '—', '—', '—']);
    expect(screen.getByText('61.1%')).toBeInTheDocument();
    expect(screen.getByText('66.7%')).toBeInTheDocument();
  });
});

describe('年级学情 / 班级学情', () => {
  it('shows a loading state while the view is computed', async () => {
    renderPage(<OverviewPage kind="grade" />, '/analysis/grade', serve({ '/api/analysis/grade': new Promise(() => {}) }));
    expect(await screen.findByText('正在计算…')).toBeInTheDocument();
  });

  it('shows an error state when the server fails', async () => {
    renderPage(<OverviewPage kind="class" />, '/analysis/class', serve({ '/api/analysis/class': new Error('boom') }));
    expect(await screen.findByText('加载失败')).toBeInTheDocument();
  });

  it('shows an empty state, with what to do, when the range has no marked homework', async () => {
    const { get } = renderPage(
      <OverviewPage kind="grade" />,
      '/analysis/grade',
      serve({ '/api/analysis/grade': { homework: [], students: [] } }),
    );
    expect(await screen.findByText('所选范围内暂无作业成绩')).toBeInTheDocument();
    expect(screen.getByText(/可换一个学科或时间范围/)).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/analysis/grade', { schoolYearId: 1, subjectId: 2 }, expect.anything());
  });
});

describe('学生学情', () => {
  it("offers the class's students from the light roster, searchable by 学号, and asks for the picked one", async () => {
    const roster = {
      classId: 4,
      students: [
        { id: 41, name: '张三', code: '2026010141' },
        { id: 42, name: '李四', code: '2026010142' },
      ],
    };
    // The class view is not served: the picker must not need its figures.
    const { get } = renderPage(
      <PersonPage />,
      '/analysis/person',
      serve({ '/api/analysis/class/students': roster, '/api/analysis/person': new Error('boom') }),
    );
    expect(await screen.findByText(/请选择一名学生/)).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/api/analysis/class/students', { classId: 4, subjectId: 2 }, expect.anything());
    expect(get).not.toHaveBeenCalledWith('/api/analysis/class', expect.anything(), expect.anything());
    await userEvent.click(screen.getByText('请选择学生'));
    expect(await screen.findByText('张三（2026010141）')).toBeInTheDocument();
    // Typing a 学号 leaves only that student (the match is highlighted inside the option).
    await userEvent.keyboard('0142');
    await waitFor(() =>
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['李四（2026010142）']),
    );
    await userEvent.click(screen.getByRole('option'));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/api/analysis/person', expect.objectContaining({ studentId: 42 }), expect.anything()),
    );
    expect(await screen.findByText('加载失败')).toBeInTheDocument();
  }, 20_000);

  it('calls a homework without a final total 未参考 (缺考, 未扫描 or still 阅卷中), never 缺考 alone', async () => {
    const trend = (homeworkId: number, absent: boolean) => ({
      homeworkId,
      title: `作业${homeworkId}`,
      startDate: '2026-09-0' + homeworkId,
      absent,
      total: absent ? null : 5,
      full: 6,
      scoreRate: absent ? null : 5 / 6,
      classScoreRate: 0.7,
      band: absent ? null : ('良好' as const),
      right: absent ? 0 : 1,
      wrong: absent ? 0 : 1,
      blank: 0,
      classRank: null,
      gradeRank: null,
    });
    renderPage(
      <PersonPage />,
      '/analysis/person?studentId=41',
      serve({
        '/api/analysis/class/students': { classId: 4, students: [{ id: 41, name: '张三', code: '2026010141' }] },
        '/api/analysis/person': {
          student: { id: 41, name: '张三', code: '2026010141', className: '初一(1)班', classId: 4 },
          subject: { id: 2, name: '数学' },
          ranksAllowed: false,
          trend: [trend(1, false), trend(2, true)],
          summary: { taken: 1, absent: 1, scoreRate: 5 / 6, band: '良好' },
          knowledgePoints: [],
          wrongQuestions: [],
        },
      }),
    );
    expect(await screen.findByText('参加 / 未参考')).toBeInTheDocument();
    expect(screen.getByText('未参考：缺考、未扫描或阅卷中，不按 0 分计')).toBeInTheDocument();
    expect(await screen.findByText('未参考', undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText(/缺考\/未扫描/)).toBeNull();
  }, 20_000);

  it('says so when the class has no students', async () => {
    renderPage(<PersonPage />, '/analysis/person', serve({ '/api/analysis/class/students': { classId: 4, students: [] } }));
    await userEvent.click(await screen.findByText('请选择学生'));
    expect(await screen.findByText('该班暂无学生')).toBeInTheDocument();
  }, 20_000);

  it('says the list failed to load when the roster request fails', async () => {
    renderPage(<PersonPage />, '/analysis/person', serve({ '/api/analysis/class/students': new Error('boom') }));
    await userEvent.click(await screen.findByText('请选择学生'));
    expect(await screen.findByText('学生名单加载失败')).toBeInTheDocument();
  }, 20_000);
});
