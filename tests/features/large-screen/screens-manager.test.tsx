/**
 * The screens manager's 显示学生姓名 switch (per screen, only where the school year allows names, the
 * server deciding too), and the panels that draw what the snapshot carries: 已印 first in the pipeline,
 * student names only when the snapshot has them.
 */
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyEvent } from '../../../src/features/large-screen/panel-data';
import { LOAD_RETRY_MS, LOAD_TRIES, ScreensManager } from '../../../src/features/large-screen/screens-manager';
import {
  MARKING_QUESTION_ROWS,
  MarkingPanel,
  PipelinePanel,
  ResultsPanel,
} from '../../../src/features/large-screen/screen-panels';
import { ApiRequestError, type HttpClient } from '../../../src/shared/adapters/http-client';
import type { LargeScreenSnapshot, Screen, ScreenOptions } from '../../../src/shared/contract/large-screen';

if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const OPTIONS: ScreenOptions = {
  wholeSchool: true,
  schoolYears: [
    { id: 1, name: '2026级 (初一)', namesAllowed: false, classes: [{ id: 11, name: '初一(1)班' }] },
    { id: 2, name: '2026级 (高一)', namesAllowed: true, classes: [{ id: 21, name: '高一(1)班' }] },
  ],
};

const screenRow = (over: Partial<Screen>): Screen => ({
  id: 1,
  name: '初一走廊',
  scopeKind: 'schoolYear',
  schoolYearId: 1,
  classId: null,
  scopeLabel: '2026级 (初一)',
  panels: ['results'],
  showNames: false,
  connected: true,
  createdAt: '2026-11-23T08:00:00.000Z',
  lastSeenAt: null,
  ...over,
});

function fakeHttp(list: Screen[]) {
  const get = vi.fn(async (url: string) => (url === '/api/screens/options' ? OPTIONS : list));
  const putJson = vi.fn(async (url: string, body: Partial<Screen>) => {
    const id = Number(url.split('/').at(-1));
    const row = list.find((s) => s.id === id)!;
    Object.assign(row, body);
    return row;
  });
  return { http: { get, putJson } as unknown as HttpClient, get, putJson };
}

describe('the screens manager', () => {
  it('offers 显示学生姓名 per screen only where the school year allows names, and sends the screen as it is with names on', async () => {
    const list = [
      screenRow({}),
      screenRow({ id: 2, name: '高一走廊', schoolYearId: 2, scopeLabel: '2026级 (高一)', panels: ['pipeline', 'results'] }),
      screenRow({ id: 3, name: '全校', scopeKind: 'school', schoolYearId: null, scopeLabel: '全校' }),
    ];
    const { http, putJson } = fakeHttp(list);
    render(<ScreensManager http={http} initialCode={null} />);
    await userEvent.click(await screen.findByRole('button', { name: '大屏管理' }));
    const junior = await screen.findByRole('switch', { name: '初一走廊 显示学生姓名' });
    const senior = screen.getByRole('switch', { name: '高一走廊 显示学生姓名' });
    const whole = screen.getByRole('switch', { name: '全校 显示学生姓名' });
    expect(junior).toBeDisabled();
    expect(whole).toBeDisabled();
    expect(senior).toBeEnabled();
    expect(senior).not.toBeChecked();

    await userEvent.click(senior);
    await waitFor(() => expect(putJson).toHaveBeenCalledTimes(1));
    expect(putJson.mock.calls[0]![0]).toBe('/api/screens/2');
    expect(putJson.mock.calls[0]![1]).toEqual({
      name: '高一走廊',
      scopeKind: 'schoolYear',
      schoolYearId: 2,
      classId: null,
      panels: ['pipeline', 'results'],
      showNames: true,
    });
    await waitFor(() => expect(screen.getByRole('switch', { name: '高一走廊 显示学生姓名' })).toBeChecked());
  });

  it('asks again when the server did not answer, and not when it refused', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { http, get } = fakeHttp([screenRow({})]);
      const ok = get.getMockImplementation()!;
      get.mockRejectedValueOnce(new ApiRequestError('网络连接失败，请检查网络后重试', 0, null, 'network'));
      render(<ScreensManager http={http} initialCode="123456" />);
      await vi.advanceTimersByTimeAsync(LOAD_RETRY_MS);
      expect(await screen.findByRole('textbox', { name: '配对码' })).toHaveValue('123456');

      cleanup();
      get.mockReset();
      get.mockRejectedValue(new ApiRequestError('没有权限', 403, 403));
      render(<ScreensManager http={http} initialCode={null} />);
      await vi.advanceTimersByTimeAsync(LOAD_RETRY_MS * LOAD_TRIES * LOAD_TRIES);
      expect(get.mock.calls.filter(([url]) => url === '/api/screens/options')).toHaveLength(1);
      expect(screen.queryByRole('button', { name: '大屏管理' })).toBeNull();
      get.mockImplementation(ok);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a screen whose year no longer allows names be turned off, never on', async () => {
    const list = [screenRow({ showNames: true })];
    const { http, putJson } = fakeHttp(list);
    render(<ScreensManager http={http} initialCode={null} />);
    await userEvent.click(await screen.findByRole('button', { name: '大屏管理' }));
    const junior = await screen.findByRole('switch', { name: '初一走廊 显示学生姓名' });
    expect(junior).toBeEnabled();
    await userEvent.click(junior);
    await waitFor(() => expect(putJson).toHaveBeenCalledTimes(1));
    expect(putJson.mock.calls[0]![1]).toMatchObject({ showNames: false });
    await waitFor(() => expect(screen.getByRole('switch', { name: '初一走廊 显示学生姓名' })).toBeDisabled());
  });
});

const base: LargeScreenSnapshot = {
  generatedAt: '2026-11-23T08:00:00.000Z',
  schoolName: '示范中学',
  title: '走廊',
  scopeLabel: '全校',
  panels: ['pipeline', 'results'],
  showNames: false,
  pipeline: [
    {
      homeworkId: 7,
      title: '第一单元',
      subjectName: '数学',
      status: 'assigned',
      printing: { genericSheets: 0, lastPrintedAt: new Date(2026, 10, 23, 7, 5).toISOString() },
      pages: { stored: 0, recognised: 0, pending: 0 },
      review: 0,
      arbitration: 0,
      classes: [
        { classId: 1, name: '一班', printed: 40, enrolled: 40, scanned: 0, review: 0, complete: 0, absent: 0 },
        { classId: 2, name: '二班', printed: null, enrolled: 38, scanned: 0, review: 0, complete: 0, absent: 0 },
      ],
      questions: [],
      teachers: [],
      pace: { scannedStudents: 0, markings: 0 },
      estimatedFinish: null,
    },
  ],
  results: null,
};

describe('the panels', () => {
  it('starts the pipeline with 已印 (and when), keeps 应交 beside it, and says per class what was printed', () => {
    render(<PipelinePanel snapshot={base} />);
    expect(screen.getByTestId('stage-printed')).toHaveTextContent('40');
    expect(screen.getByText('已印 · 07:05')).toBeInTheDocument();
    expect(screen.getByTestId('stage-enrolled')).toHaveTextContent('78');
    expect(screen.getByTestId('printed-1')).toHaveTextContent('40');
    expect(screen.getByTestId('printed-2')).toHaveTextContent('—');
  });

  it('says 未打印 when nothing was printed, never 0', () => {
    const hw = base.pipeline[0]!;
    render(
      <PipelinePanel
        snapshot={{
          ...base,
          pipeline: [
            {
              ...hw,
              printing: { genericSheets: 0, lastPrintedAt: null },
              classes: hw.classes.map((c) => ({ ...c, printed: null })),
            },
          ],
        }}
      />,
    );
    expect(screen.getByTestId('stage-printed')).toHaveTextContent('未打印');
  });

  it('names students only when the snapshot carries them', () => {
    const results: NonNullable<LargeScreenSnapshot['results']> = {
      homework: { id: 7, title: '第一单元', subjectName: '数学', date: '2026-11-20', full: 100 },
      grade: { scoreRate: 0.8, participants: 2, enrolled: 2 },
      classes: [],
      mostMissed: [],
      heatmapHomeworkCount: 1,
      heatmap: [],
      mostImproved: null,
      topStudents: null,
    };
    const { unmount } = render(<ResultsPanel snapshot={{ ...base, results }} />);
    expect(screen.queryByText('优秀学生')).toBeNull();
    unmount();
    render(
      <ResultsPanel
        snapshot={{
          ...base,
          showNames: true,
          results: { ...results, topStudents: [{ name: '张三', className: '高一(1)班', scoreRate: 0.95 }] },
        }}
      />,
    );
    const card = screen.getByText('优秀学生').closest('section')!;
    expect(within(card).getByText(/张三/)).toBeInTheDocument();
    expect(within(card).getByText('95.0%')).toBeInTheDocument();
  });

  it('says of the most improved class that its gap to the grade rose, not that it is above the grade', () => {
    const results: NonNullable<LargeScreenSnapshot['results']> = {
      homework: { id: 7, title: '第一单元', subjectName: '数学', date: '2026-11-20', full: 100 },
      grade: { scoreRate: 0.8, participants: 2, enrolled: 2 },
      classes: [],
      mostMissed: [],
      heatmapHomeworkCount: 1,
      heatmap: [],
      mostImproved: { name: '初一(4)班', previousTitle: '上一单元', delta: 0.025 },
      topStudents: null,
    };
    render(<ResultsPanel snapshot={{ ...base, results }} />);
    const line = screen.getByText('初一(4)班').closest('p')!;
    expect(line).toHaveTextContent('初一(4)班 与年级得分率之差提高 2.5 个百分点（与《上一单元》相比）');
    expect(line).not.toHaveTextContent('提升');
  });

  describe("today's homework cards", () => {
    // jsdom lays nothing out: a card is 200 px plus 100 px a class (no gap), the 另有 line 30 px, the panel `panel` px.
    const layOut = (panel: number) =>
      vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
        const rows = this.querySelectorAll('tbody tr').length;
        const height = this.tagName === 'SECTION' ? 200 + rows * 100 : this.tagName === 'P' ? 30 : panel;
        return { top: 0, height, bottom: height, left: 0, right: 1000, width: 1000, x: 0, y: 0, toJSON: () => ({}) };
      });
    afterEach(() => vi.restoreAllMocks());
    const [first] = base.pipeline;
    const homework = (classes: number[]) =>
      classes.map((n, i) => ({ ...first!, homeworkId: 100 + i, title: `作业${i + 1}`, classes: first!.classes.slice(0, n) }));
    const shownTitles = () => screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));

    it('shows as many as the panel holds and counts only the rest', () => {
      layOut(1000);
      // 400 px each: two, and the line.
      render(<PipelinePanel snapshot={{ ...base, pipeline: homework([2, 2, 2, 2, 2]) }} />);
      expect(shownTitles()).toEqual(['作业1', '作业2']);
      expect(screen.getByText('另有 3 份作业在扫描或阅卷中')).toBeInTheDocument();
    });

    it('lets a shorter card after a tall one take the room the tall one does not fit', () => {
      layOut(1150);
      // 400 + 400 px, then the third (400) does not fit with the 30 px line, the fourth (300) does.
      render(<PipelinePanel snapshot={{ ...base, pipeline: homework([2, 2, 2, 1, 2]) }} />);
      expect(shownTitles()).toEqual(['作业1', '作业2', '作业4']);
      expect(screen.getByText('另有 2 份作业在扫描或阅卷中')).toBeInTheDocument();
    });

    it('shows them all, with no 另有 line, when they fit', () => {
      layOut(2000);
      render(<PipelinePanel snapshot={{ ...base, pipeline: homework([2, 2, 2, 2, 2]) }} />);
      expect(shownTitles()).toHaveLength(5);
      expect(screen.queryByText(/另有 \d+ 份作业/)).toBeNull();
    });

    it('measures again when the homework change', () => {
      layOut(1000);
      const { rerender } = render(<PipelinePanel snapshot={{ ...base, pipeline: homework([2, 2]) }} />);
      expect(shownTitles()).toHaveLength(2);
      expect(screen.queryByText(/另有 \d+ 份作业/)).toBeNull();
      rerender(<PipelinePanel snapshot={{ ...base, pipeline: homework([2, 2, 2, 2]) }} />);
      expect(shownTitles()).toEqual(['作业1', '作业2']);
      expect(screen.getByText('另有 2 份作业在扫描或阅卷中')).toBeInTheDocument();
    });
  });
});

describe('阅卷进度', () => {
  // jsdom lays nothing out: a card is 200 px plus 50 px a question (no gap), the 另有 line 30 px, the panel `panel` px.
  const layOut = (panel: number) =>
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const rows = this.querySelectorAll('tbody tr[data-testid^="question-"]').length;
      const height = this.tagName === 'SECTION' ? 200 + rows * 50 : this.tagName === 'P' ? 30 : panel;
      return { top: 0, height, bottom: height, left: 0, right: 1000, width: 1000, x: 0, y: 0, toJSON: () => ({}) };
    });
  afterEach(() => vi.restoreAllMocks());
  const [first] = base.pipeline;
  const question = (no: number) => ({ no, todo: 10, inProgress: 3, done: 25, missing: 2 });
  const marking = (questions: number[]) =>
    questions.map((n, i) => ({
      ...first!,
      homeworkId: 200 + i,
      title: `阅卷${i + 1}`,
      status: 'marking',
      arbitration: i,
      questions: Array.from({ length: n }, (_, q) => question(q + 1)),
      teachers: [
        { name: '王老师', done: 40, inProgress: 2 },
        { name: '李老师', done: 35, inProgress: 1 },
      ],
    }));
  const shownTitles = () => screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));

  it('shows as many homework as the panel holds, not always two, and counts only the rest', () => {
    layOut(1000);
    // 300 px each: three, and the line under them.
    render(<MarkingPanel snapshot={{ ...base, panels: ['marking'], pipeline: marking([2, 2, 2, 2, 2]) }} />);
    expect(shownTitles()).toEqual(['阅卷1 阅卷', '阅卷2 阅卷', '阅卷3 阅卷']);
    expect(screen.getByText('另有 2 份作业在阅卷中')).toBeInTheDocument();
  });

  it('shows one homework alone, and all of them with no 另有 line when they fit', () => {
    layOut(2000);
    const { rerender } = render(<MarkingPanel snapshot={{ ...base, pipeline: marking([1]) }} />);
    expect(shownTitles()).toEqual(['阅卷1 阅卷']);
    rerender(<MarkingPanel snapshot={{ ...base, pipeline: marking([2, 2, 2, 2, 2]) }} />);
    expect(shownTitles()).toHaveLength(5);
    expect(screen.queryByText(/另有 \d+ 份作业/)).toBeNull();
  });

  it('leaves out homework with no hand-marked question, and says so when none has one', () => {
    layOut(2000);
    const { rerender } = render(
      <MarkingPanel snapshot={{ ...base, pipeline: [...marking([2]), { ...first!, homeworkId: 300, title: '全客观' }] }} />,
    );
    expect(shownTitles()).toEqual(['阅卷1 阅卷']);
    rerender(<MarkingPanel snapshot={base} />);
    expect(screen.getByText('今天没有需要人工阅卷的题目')).toBeInTheDocument();
  });

  it('says per question what is to do, in progress, done and missing, per teacher, and the arbitration waiting', () => {
    layOut(2000);
    const [hw] = marking([1, 3]).slice(1);
    render(
      <MarkingPanel snapshot={{ ...base, pipeline: [{ ...hw!, questions: [question(1), { ...question(4), missing: 0 }] }] }} />,
    );
    expect(screen.getByTestId('marking-todo-201')).toHaveTextContent('20');
    expect(screen.getByTestId('marking-progress-201')).toHaveTextContent('6');
    expect(screen.getByTestId('marking-done-201')).toHaveTextContent('50');
    expect(screen.getByTestId('marking-missing-201')).toHaveTextContent('2');
    expect(screen.getByTestId('marking-arbitration-201')).toHaveTextContent('1');
    const row = screen.getByTestId('question-201-4');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['第 4 题', '', '10', '3', '25', '0']);
    expect(within(row).getByRole('img', { name: '第 4 题 已阅 25，阅卷中 3，待阅 10，缺页 0' })).toBeInTheDocument();
    const teachers = screen.getByRole('table', { name: `${hw!.title} 阅卷教师` });
    expect(
      within(teachers)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['阅卷教师已阅阅卷中', '王老师402', '李老师351']);
  });

  it('lists at most MARKING_QUESTION_ROWS rows for a homework with many hand-marked questions, the rest summed as 另有 N 题', () => {
    layOut(2000);
    render(<MarkingPanel snapshot={{ ...base, pipeline: marking([30]) }} />);
    const rows = screen.getAllByTestId(/^question-200-/);
    expect(rows).toHaveLength(MARKING_QUESTION_ROWS - 1);
    expect(rows.at(-1)).toHaveAttribute('data-testid', `question-200-${MARKING_QUESTION_ROWS - 1}`);
    const rest = 30 - (MARKING_QUESTION_ROWS - 1);
    expect(
      within(screen.getByTestId('questions-rest-200'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([`另有 ${rest} 题`, String(10 * rest), String(3 * rest), String(25 * rest), String(2 * rest)]);
    // The totals still count every question.
    expect(screen.getByTestId('marking-done-200')).toHaveTextContent(String(25 * 30));
  });

  it('lists every question, with no 另有 row, up to MARKING_QUESTION_ROWS', () => {
    layOut(2000);
    render(<MarkingPanel snapshot={{ ...base, pipeline: marking([MARKING_QUESTION_ROWS]) }} />);
    expect(screen.getAllByTestId(/^question-200-/)).toHaveLength(MARKING_QUESTION_ROWS);
    expect(screen.queryByTestId('questions-rest-200')).toBeNull();
  });

  it('moves a question’s counts when a marking event arrives', () => {
    layOut(2000);
    const snap = { ...base, pipeline: marking([2]) };
    const { rerender } = render(<MarkingPanel snapshot={snap} />);
    expect(within(screen.getByTestId('question-200-2')).getAllByRole('cell')[4]).toHaveTextContent('25');
    rerender(
      <MarkingPanel
        snapshot={applyEvent(snap, { kind: 'marking', progress: { homeworkId: 200, questionNo: 2, done: 30, total: 40 } })}
      />,
    );
    const cells = within(screen.getByTestId('question-200-2')).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['第 2 题', '', '8', '0', '30', '2']);
    expect(screen.getByTestId('marking-done-200')).toHaveTextContent('55');
  });
});
