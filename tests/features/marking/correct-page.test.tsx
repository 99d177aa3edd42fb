import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { MARKING_PROGRESS_EVENT, type MarkingOverview, type ReviewItem } from '../../../src/shared/contract/marking';
import { RECOGNITION_PROGRESS_EVENT } from '../../../src/shared/contract/recognition';
import { homework } from '../papers/papers-test-kit';
import { fakeHttp, fakeRealtime, overview, question, renderMarking, reviewItem, task, type Method } from './marking-test-kit';

type Answers = { overview?: MarkingOverview; open?: ReviewItem[]; resolved?: ReviewItem[] };

function server(answers: Answers = {}) {
  const data = { overview: overview(), open: [] as ReviewItem[], resolved: [] as ReviewItem[], ...answers };
  return fakeHttp((method: Method, url: string, body: unknown) => {
    if (method === 'GET' && url === '/api/marking/homework/3') return data.overview;
    if (method === 'PUT' && url === '/api/marking/homework/3/assignments') return data.overview;
    if (method === 'PUT' && url === '/api/marking/homework/3/students/43/absence')
      return {
        ...data.overview,
        students: { total: 3, scanned: 2, unscanned: [], absent: [{ studentId: 43, name: '王五', code: '2026010103' }] },
      };
    if (method === 'GET' && url === '/api/marking/homework/3/review')
      return (body as { status: string }).status === 'open' ? data.open : data.resolved;
    if (method === 'POST' && url.startsWith('/api/marking/review/')) {
      const item = data.open.find((i) => url === `/api/marking/review/${i.id}/resolve`)!;
      return { ...item, status: 'resolved', resolution: '已处理' };
    }
    if (method === 'GET' && url === '/api/homework/3')
      return homework(3, {
        classes: [
          { id: 4, name: '初一(1)班' },
          { id: 5, name: '初一(2)班' },
        ],
      });
    if (method === 'GET' && url === '/api/classes/4/students')
      return [
        { id: 41, classId: 4, name: '张三', code: '2026010101' },
        { id: 42, classId: 4, name: '李四', code: '2026010102' },
      ];
    if (method === 'GET' && url === '/api/marking/homework/3/scores')
      return {
        homeworkId: 3,
        title: '第一单元测验',
        questions: [
          { questionNo: 1, type: 'single', score: 3 },
          { questionNo: 14, type: 'subjective', score: 10 },
        ],
        students: [
          {
            studentId: 41,
            name: '张三',
            code: '2026010101',
            className: '初一(1)班',
            scores: { '1': 3, '14': 8.5 },
            answers: { '1': ['A'] },
            total: 11.5,
            complete: true,
            status: 'complete',
          },
          {
            studentId: 42,
            name: '李四',
            code: '2026010102',
            className: '初一(1)班',
            scores: { '1': 0, '14': null },
            answers: { '1': ['C'] },
            total: 8,
            complete: false,
            status: 'marking',
          },
          {
            studentId: 43,
            name: '王五',
            code: '2026010103',
            className: '初一(1)班',
            scores: { '1': null, '14': null },
            answers: {},
            total: null,
            complete: false,
            status: 'unscanned',
          },
        ],
      };
    if (method === 'GET' && url === '/api/marking/homework/3/arbitration')
      return [task(30, { round: 4, otherScores: [4, 9, 6.5] }), task(31, { round: 4, otherScores: [2, 8, 5] })];
    if (method === 'GET' && url === '/api/homework') {
      const status = (body as { status: string }).status;
      const list =
        status === 'marking'
          ? [homework(3, { title: '第一单元测验', status: 'marking' })]
          : [homework(4, { title: '周末练习', status: 'scanning' })];
      return { list, total: list.length, page: 1, pageSize: 50 };
    }
    throw new Error(`unexpected ${method} ${url}`);
  });
}

const card = (name: string) => screen.getByRole('listitem', { name });

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  const picker = screen.getByRole('combobox', { name: label });
  await user.click(picker.querySelector('.semi-select-selection') ?? picker);
  await user.click(await screen.findByRole('option', { name: new RegExp(option.replace(/[()]/g, '\\$&')) }));
}

// The page's lazily loaded parts (tabs, dialogs, the table), loaded once before the tests as a browser's
// cache would hold them: transforming them on first use can outlast a test's wait on a busy machine.
beforeAll(async () => {
  await Promise.all([
    import('../../../src/features/marking/assignments-tab'),
    import('../../../src/features/marking/review-tab'),
    import('../../../src/features/marking/scores-tab'),
    import('../../../src/features/marking/arbitration-tab'),
    import('../../../src/shared/ui/table-chunk'),
  ]);
}, 60_000);

describe('/correct', () => {
  it('shows the homework, its recognition counts and a task card per hand-marked question', async () => {
    renderMarking('/correct?homeworkId=3', server().http);
    expect(await screen.findByRole('heading', { name: '第一单元测验' })).toBeInTheDocument();
    expect(screen.getByText('阅卷中')).toBeInTheDocument();
    const recognition = screen.getByRole('region', { name: '识别进度' });
    expect(within(recognition).getByText('80')).toBeInTheDocument();
    expect(within(recognition).getByText('正在识别… 76/80')).toBeInTheDocument();

    const q14 = card('第14题');
    expect(within(q14).getByText('解答题')).toBeInTheDocument();
    expect(within(q14).getByText('满分 10 分')).toBeInTheDocument();
    expect(within(q14).getByText('已阅 10 / 40 份')).toBeInTheDocument();
    expect(within(q14).getByText('王老师（我） 10 份')).toBeInTheDocument();
    expect(within(card('第13题')).getByText('已阅完')).toBeInTheDocument();
    expect(within(card('第13题')).getByText('李老师 40 份')).toBeInTheDocument();
    // The objective question is scored by the server, not listed as a task.
    expect(screen.queryByRole('listitem', { name: '第1题' })).not.toBeInTheDocument();
    expect(screen.getByText(/客观题 1 道（第 1 题）由系统按答案自动评分/)).toBeInTheDocument();
  });

  it("follows this homework's live recognition and marking progress, ignoring other homework", async () => {
    const realtime = fakeRealtime();
    renderMarking('/correct?homeworkId=3', server().http, realtime);
    await screen.findByText('已阅 10 / 40 份');
    realtime.emit(MARKING_PROGRESS_EVENT, { homeworkId: 3, questionNo: 14, done: 11, total: 40 });
    expect(within(card('第14题')).getByText('已阅 11 / 40 份')).toBeInTheDocument();
    realtime.emit(MARKING_PROGRESS_EVENT, { homeworkId: 9, questionNo: 14, done: 30, total: 40 });
    expect(within(card('第14题')).getByText('已阅 11 / 40 份')).toBeInTheDocument();
    realtime.emit(RECOGNITION_PROGRESS_EVENT, { homeworkId: 3, stored: 80, recognised: 80, pending: 0, review: 3 });
    expect(screen.getByText('识别完成 80/80')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /异常处理/ })).toHaveTextContent('3');
  });

  it('asks the server again after the live connection came back (events sent meanwhile are lost)', async () => {
    const realtime = fakeRealtime();
    const fake = server();
    renderMarking('/correct?homeworkId=3', fake.http, realtime);
    await screen.findByText('已阅 10 / 40 份');
    const overviews = () => fake.get.mock.calls.filter(([url]) => String(url) === '/api/marking/homework/3').length;
    const before = overviews();
    realtime.emit('connect', undefined);
    await waitFor(() => expect(overviews()).toBe(before + 1));
  });

  it('leads 开始阅卷 to /write for that question', async () => {
    renderMarking('/correct?homeworkId=3', server().http);
    await userEvent.click(await screen.findByRole('button', { name: '开始阅卷：第14题' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/write?homeworkId=3&questionNo=14');
  });

  it('lets a teacher mark only the questions assigned to them', async () => {
    const notOwner = overview({ isOwner: false });
    renderMarking('/correct?homeworkId=3', server({ overview: notOwner }).http);
    expect(await screen.findByRole('button', { name: '开始阅卷：第14题' })).toBeEnabled();
    expect(screen.getByRole('button', { name: '开始阅卷：第13题' })).toBeDisabled();
    expect(within(card('第13题')).getByText(/未分配给您/)).toBeInTheDocument();
  });

  it('saves the teachers, double marking and tolerance of every hand-marked question', async () => {
    const fake = server();
    renderMarking('/correct?homeworkId=3&tab=assign', fake.http);
    const row = await screen.findByRole('listitem', { name: '第14题分配' });
    await choose('第14题阅卷老师', '赵老师');
    await userEvent.click(within(row).getByRole('switch', { name: '第14题双评' }));
    const tolerance = within(row).getByRole('spinbutton', { name: '第14题误差' });
    await userEvent.clear(tolerance);
    await userEvent.type(tolerance, '2');
    await userEvent.click(screen.getByRole('button', { name: '保存分配' }));
    await waitFor(() =>
      expect(fake.putJson).toHaveBeenCalledWith(
        '/api/marking/homework/3/assignments',
        {
          questions: [
            { questionNo: 13, userIds: [8], doubleMarking: false, tolerance: 0 },
            { questionNo: 14, userIds: [7, 9], doubleMarking: true, tolerance: 2 },
          ],
        },
        expect.anything(),
      ),
    );
  });

  it('keeps a question nobody is assigned to unassigned on save, so 按学科分配 still hands it to the subject teacher', async () => {
    const fake = server({
      overview: overview({
        questions: [question(14, { assigned: [], markers: [{ userId: 7, name: '王老师', marked: 2 }] })],
      }),
    });
    renderMarking('/correct?homeworkId=3&tab=assign', fake.http);
    const row = await screen.findByRole('listitem', { name: '第14题分配' });
    expect(within(row).getByText('未分配：由您或任课老师阅卷')).toBeInTheDocument();
    expect(screen.getByText(/双评须为该题指定至少两位阅卷老师/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存分配' }));
    await waitFor(() =>
      expect(fake.putJson).toHaveBeenCalledWith(
        '/api/marking/homework/3/assignments',
        { questions: [{ questionNo: 14, userIds: [], doubleMarking: false, tolerance: 0 }] },
        expect.anything(),
      ),
    );
  });

  it('lists assigned teachers who have not marked yet, and says the owner marks an unassigned question', async () => {
    const questions = [
      question(14, { assigned: [7, 9], markers: [{ userId: 7, name: '王老师', marked: 10 }] }),
      question(15, { assigned: [], markers: [] }),
    ];
    renderMarking('/correct?homeworkId=3', server({ overview: overview({ questions }) }).http);
    const q14 = await screen.findByRole('listitem', { name: '第14题' });
    expect(within(q14).getByText('王老师（我） 10 份')).toBeInTheDocument();
    expect(within(q14).getByText('赵老师 0 份')).toBeInTheDocument();
    expect(within(card('第15题')).getByText('未分配，由作业布置者阅卷')).toBeInTheDocument();
  });

  it('sends the multiple-choice partial credit with the assignments when the paper has such questions', async () => {
    const fake = server({
      overview: overview({
        questions: [question(2, { type: 'multiple', manual: false, assigned: [], markers: [] }), question(14)],
      }),
    });
    renderMarking('/correct?homeworkId=3&tab=assign', fake.http);
    const credit = await screen.findByRole('spinbutton', { name: '多选题少选得分比例' });
    expect(credit).toHaveValue('50');
    await userEvent.clear(credit);
    await userEvent.type(credit, '30');
    await userEvent.click(screen.getByRole('button', { name: '保存分配' }));
    await waitFor(() =>
      expect(fake.putJson).toHaveBeenCalledWith(
        '/api/marking/homework/3/assignments',
        { questions: [{ questionNo: 14, userIds: [7], doubleMarking: false, tolerance: 0 }], partialCredit: 0.3 },
        expect.anything(),
      ),
    );
  });

  it('does not send double marking with a single teacher', async () => {
    const fake = server();
    renderMarking('/correct?homeworkId=3&tab=assign', fake.http);
    const row = await screen.findByRole('listitem', { name: '第14题分配' });
    await userEvent.click(within(row).getByRole('switch', { name: '第14题双评' }));
    expect(within(row).getByText('双评须选两位及以上阅卷老师')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '保存分配' }));
    expect(within(row).getByRole('alert')).toHaveTextContent('双评至少需要两位阅卷老师');
    expect(fake.putJson).not.toHaveBeenCalled();
  });

  it('shows 任务分配 and 仲裁 to the owner only', async () => {
    const arbitration = overview({ questions: [question(14, { arbitration: 2 })] });
    renderMarking('/correct?homeworkId=3', server({ overview: arbitration }).http);
    expect(await screen.findByRole('tab', { name: '任务分配' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /仲裁/ })).toBeInTheDocument();
  });

  it('lists the answers waiting for arbitration with their marks and leads to /write in arbitration mode', async () => {
    const arbitration = overview({ questions: [question(14, { arbitration: 2 })] });
    renderMarking('/correct?homeworkId=3&tab=arbitration', server({ overview: arbitration }).http);
    const list = await screen.findByRole('list', { name: '待仲裁' });
    expect(within(list).getByText('待仲裁 2 份')).toBeInTheDocument();
    expect(within(list).getByText('一评 4 分 · 二评 9 分 · 三评 6.5 分')).toBeInTheDocument();
    await userEvent.click(within(list).getByRole('button', { name: '仲裁第 14 题' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent(
      '/write?homeworkId=3&questionNo=14&mode=arbitration',
    );
  });

  it('hides 任务分配 and 仲裁 from a teacher who did not assign the homework', async () => {
    const notOwner = overview({ isOwner: false, questions: [question(14, { arbitration: 2 })] });
    renderMarking('/correct?homeworkId=3&tab=assign', server({ overview: notOwner }).http);
    await screen.findByRole('heading', { name: '第一单元测验' });
    expect(screen.queryByRole('tab', { name: '任务分配' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /仲裁/ })).not.toBeInTheDocument();
    // The requested tab falls back to 阅卷任务.
    expect(screen.getByRole('tab', { name: '阅卷任务' })).toHaveAttribute('aria-selected', 'true');
  });

  describe('异常处理', () => {
    const open = [
      reviewItem(1, { kind: 'unknownStudent', imageId: 'page-a' }),
      reviewItem(2, {
        kind: 'lowConfidence',
        questionNo: 5,
        student: { id: 41, name: '张三', code: '2026010101' },
        reading: {
          questionNo: 5,
          fills: [
            { label: 'A', fill: 0.1 },
            { label: 'B', fill: 0.45 },
            { label: 'C', fill: 0.9 },
            { label: 'D', fill: 0.05 },
          ],
          marked: ['C'],
          confidence: 0.4,
        },
      }),
      reviewItem(3, { kind: 'blankPage' }),
    ];
    const resolved = [reviewItem(9, { kind: 'duplicatePage', status: 'resolved', resolution: '已作废' })];

    it('lists open items with their label and scanned page, and resolved ones apart', async () => {
      const fake = server({ open, resolved });
      renderMarking('/correct?homeworkId=3&tab=review', fake.http);
      const list = await screen.findByRole('list', { name: '待处理异常' });
      expect(within(list).getByText('无法确定学生')).toBeInTheDocument();
      expect(within(list).getByText('填涂不清晰')).toBeInTheDocument();
      expect(within(list).getByText('空白页')).toBeInTheDocument();
      expect(fake.getBlob).toHaveBeenCalledWith('/api/scan/pages/page-a/image', undefined, { silent: true });
      expect(await within(list).findByAltText('无法确定学生：学生未知 · 第 1 页 的答题卡扫描图')).toHaveAttribute(
        'src',
        expect.stringMatching(/^blob:/),
      );
      const done = screen.getByRole('list', { name: '已处理异常' });
      expect(within(done).getByText('重复扫描的答题卡')).toBeInTheDocument();
      expect(within(done).getByText('已作废')).toBeInTheDocument();
    });

    it('assigns the page to a student of the homework’s classes', async () => {
      const fake = server({ open });
      renderMarking('/correct?homeworkId=3&tab=review', fake.http);
      const item = await screen.findByRole('listitem', { name: '异常：无法确定学生' });
      await userEvent.click(within(item).getByRole('button', { name: '指定学生' }));
      await waitFor(() => expect(fake.get).toHaveBeenCalledWith('/api/classes/4/students', undefined, expect.anything()));
      await choose('学生', '李四');
      await userEvent.click(within(item).getByRole('button', { name: '确定指定' }));
      await waitFor(() =>
        expect(fake.postJson).toHaveBeenCalledWith(
          '/api/marking/review/1/resolve',
          { action: 'assignStudent', studentId: 42, page: 1 },
          expect.anything(),
        ),
      );
    });

    it('corrects the bubbles of a question in template order', async () => {
      const fake = server({ open });
      renderMarking('/correct?homeworkId=3&tab=review', fake.http);
      const item = await screen.findByRole('listitem', { name: '异常：填涂不清晰' });
      await userEvent.click(within(item).getByRole('button', { name: '修改填涂' }));
      await userEvent.click(within(item).getByRole('checkbox', { name: 'B' }));
      await userEvent.click(within(item).getByRole('checkbox', { name: 'C' }));
      await userEvent.click(within(item).getByRole('checkbox', { name: 'A' }));
      await userEvent.click(within(item).getByRole('button', { name: '保存填涂' }));
      await waitFor(() =>
        expect(fake.postJson).toHaveBeenCalledWith(
          '/api/marking/review/2/resolve',
          { action: 'setAnswer', questionNo: 5, labels: ['A', 'B'] },
          expect.anything(),
        ),
      );
    });

    it('accepts a reading, and discards a page after confirming', async () => {
      const fake = server({ open });
      renderMarking('/correct?homeworkId=3&tab=review', fake.http);
      const unclear = await screen.findByRole('listitem', { name: '异常：填涂不清晰' });
      // A low-confidence mark cannot be discarded, a blank page cannot have its bubbles set.
      expect(within(unclear).queryByRole('button', { name: '作废' })).not.toBeInTheDocument();
      await userEvent.click(within(unclear).getByRole('button', { name: '确认' }));
      await waitFor(() =>
        expect(fake.postJson).toHaveBeenCalledWith('/api/marking/review/2/resolve', { action: 'accept' }, expect.anything()),
      );

      const blank = screen.getByRole('listitem', { name: '异常：空白页' });
      expect(within(blank).queryByRole('button', { name: '修改填涂' })).not.toBeInTheDocument();
      await userEvent.click(within(blank).getByRole('button', { name: '作废' }));
      expect(fake.postJson).toHaveBeenCalledTimes(1);
      // The confirmation's own 作废 button sends it.
      const confirm = await waitFor(() => document.querySelector<HTMLElement>('.semi-popconfirm')!);
      await userEvent.click(within(confirm).getByRole('button', { name: '作废' }));
      await waitFor(() =>
        expect(fake.postJson).toHaveBeenCalledWith('/api/marking/review/3/resolve', { action: 'discard' }, expect.anything()),
      );
    });
  });

  it('names the students still missing, marks one absent (缺考) after confirming, and offers to undo it', async () => {
    const fake = server({
      overview: overview({
        students: { total: 3, scanned: 2, unscanned: [{ studentId: 43, name: '王五', code: '2026010103' }], absent: [] },
        closed: false,
      }),
    });
    renderMarking('/correct?homeworkId=3', fake.http);
    const panel = await screen.findByRole('region', { name: '学生扫描情况' });
    expect(within(panel).getByText('学生：已扫描 2 / 3 人')).toBeInTheDocument();
    expect(within(panel).getByText('还有 1 名学生未扫描')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: '王五（2026010103）未扫描，记为缺考' }));
    const dialog = await screen.findByRole('dialog', { name: '将 王五 记为缺考？' });
    await userEvent.click(within(dialog).getByText('记为缺考').closest('button')!);
    await waitFor(() =>
      expect(fake.putJson).toHaveBeenCalledWith(
        '/api/marking/homework/3/students/43/absence',
        { absent: true },
        expect.anything(),
      ),
    );
    expect(await within(panel).findByText('王五 缺考')).toBeInTheDocument();
    expect(within(panel).getByText('全部学生已扫描或记为缺考')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: '撤销 王五 的缺考' })).toBeInTheDocument();
  });

  it('lists the scores per question with the total and completeness, and exports them as Excel', async () => {
    const fake = server();
    renderMarking('/correct?homeworkId=3&tab=scores', fake.http);
    const table = await screen.findByRole('region', { name: '成绩表' });
    const zhang = (await within(table).findByText('张三')).closest('tr')!;
    expect(within(zhang).getByText('8.5')).toBeInTheDocument();
    expect(within(zhang).getByText('11.5')).toBeInTheDocument();
    expect(within(zhang).getByText('已阅完')).toBeInTheDocument();
    const li = within(table).getByText('李四').closest('tr')!;
    expect(within(li).getByText('—')).toBeInTheDocument();
    // 阅卷中: no 总分 (its partial 8 is not one; the Excel leaves the cell empty too), the status said in its place.
    expect(within(li).getAllByText('阅卷中')).toHaveLength(2);
    expect(within(li).queryByText('8')).toBeNull();
    // Never scanned: 未扫描 in place of a total (never 0), empty cells, and out of the average.
    const wang = within(table).getByText('王五').closest('tr')!;
    expect(within(wang).getAllByText('未扫描')).toHaveLength(2);
    expect(within(wang).queryByText('0')).toBeNull();
    expect(within(wang).queryByText('—')).toBeNull();
    // The average counts 已阅完 only, as the analysis does: 李四's 8 lacks the questions not marked yet.
    expect(screen.getByText('共 3 人，已阅完 1 人，阅卷中 1 人，未扫描 1 人，已阅完的平均分 11.5')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /导出 Excel/ }));
    expect(fake.downloadGet).toHaveBeenCalledWith('/api/marking/homework/3/scores.xlsx', undefined, '第一单元测验-成绩表.xlsx');
    // 数据分析: the homework's analysis.
    await userEvent.click(screen.getByRole('button', { name: '数据分析' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/assistant/analysis?homeworkId=3');
  });

  it('offers the homework being scanned or marked when no homework is given', async () => {
    renderMarking('/correct', server().http);
    const list = await screen.findByRole('list', { name: '待阅卷作业' });
    expect(within(list).getByText('第一单元测验')).toBeInTheDocument();
    expect(within(list).getByText('周末练习')).toBeInTheDocument();
    await userEvent.click(within(list).getByRole('button', { name: '阅卷：周末练习' }));
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/correct?homeworkId=4');
  });
});
