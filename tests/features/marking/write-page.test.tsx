import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../../src/shared/adapters/http-client';
import { MARKING_MESSAGES, type MarkingTask, type ScoreSubmit } from '../../../src/shared/contract/marking';
import { fakeHttp, renderMarking, task, type Method } from './marking-test-kit';

const ROUTE = '/write?homeworkId=3&questionNo=14';

/** A server handing out `queue` one answer at a time and recording every score. */
type ServerOptions = {
  queue?: MarkingTask[];
  history?: MarkingTask[];
  /** Answers to score submits wait for this, and fail while `failScores` lasts. */
  gate?: () => Promise<void>;
  failScores?: number;
  failure?: ApiRequestError;
};

function markingServer(options: ServerOptions = {}) {
  const queue = [...(options.queue ?? [task(1), task(2)])];
  let failures = options.failScores ?? 0;
  let mine = 0;
  const fake = fakeHttp(async (method: Method, url: string, body: unknown) => {
    if (method === 'POST' && url === '/api/marking/homework/3/questions/14/next') {
      const next = queue.shift() ?? null;
      return next && { ...next, progress: { mine, left: queue.length + 1 } };
    }
    if (method === 'GET' && url === '/api/marking/homework/3/questions/14/history') return options.history ?? [];
    if (method === 'GET' && url === '/api/rehearse/settings')
      return { errorCauses: ['审题', '计算', '概念'], subjectiveWrongPercent: 100 };
    const scored = /^\/api\/marking\/tasks\/(\d+)\/score$/.exec(url);
    if (method === 'POST' && scored) {
      await options.gate?.();
      if (failures > 0) {
        failures -= 1;
        throw options.failure ?? new ApiRequestError('网络连接失败，请检查网络后重试', 0, null, 'network');
      }
      mine += 1;
      const submit = body as ScoreSubmit;
      return task(Number(scored[1]), {
        score: submit.score,
        annotations: submit.annotations ?? [],
        problem: submit.problem ?? false,
        progress: { mine, left: queue.length },
      });
    }
    throw new Error(`unexpected ${method} ${url}`);
  });
  const scores = () =>
    fake.postJson.mock.calls.filter(([url]) => String(url).endsWith('/score')).map(([url, body]) => [url, body]);
  return { ...fake, scores };
}

/** The answer image shown, by the answer id its blob came from. */
async function answerShown(answerId: number) {
  await waitFor(() => expect(markingRequests()).toContain(`/api/marking/answers/${answerId}/image`));
  return screen.findByRole('img', { name: '第 14 题答卷' });
}
let markingRequests: () => string[] = () => [];

function render(server: ReturnType<typeof markingServer>) {
  markingRequests = () => server.getBlob.mock.calls.map(([url]) => String(url));
  return renderMarking(ROUTE, server.http);
}

describe('/write', () => {
  it('types a score on the keyboard, submits it with Enter and shows the next answer', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    expect(screen.getByText('我已阅 0 份 · 剩余 2 份')).toBeInTheDocument();
    await userEvent.keyboard('8');
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('8');
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([['/api/marking/tasks/1/score', { score: 8, annotations: [], problem: false }]]),
    );
    await answerShown(502);
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('—');
    expect(screen.getByText('我已阅 1 份 · 剩余 1 份')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '阅卷历史' })).getByText('8 分')).toBeInTheDocument();
  });

  it('leaves Enter on other buttons to them, and does not submit on a held Enter', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.keyboard('8');
    fireEvent.keyDown(window, { key: 'Enter', repeat: true });
    const back = screen.getByRole('button', { name: /返回阅卷/ });
    back.focus();
    fireEvent.keyDown(back, { key: 'Enter' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.scores()).toEqual([]);
    within(screen.getByRole('group', { name: '数字键盘' }))
      .getByRole('button', { name: '8' })
      .focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([['/api/marking/tasks/1/score', { score: 8, annotations: [], problem: false }]]),
    );
  });

  it('scores with the keypad and a half point, and with quick scores', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.click(screen.getByRole('button', { name: '7' }));
    await userEvent.click(screen.getByRole('button', { name: '0.5' }));
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('7.5');
    await userEvent.click(screen.getByRole('button', { name: '提交并阅下一份' }));
    await answerShown(502);
    // quickScores(10): 0, 2.5, 5, 7.5, 10
    await userEvent.click(screen.getByRole('button', { name: '给 2.5 分' }));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(server.scores().map(([, body]) => (body as ScoreSubmit).score)).toEqual([7.5, 2.5]));
  });

  it('rejects a score above the full marks without sending it', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.keyboard('15');
    expect(screen.getByRole('alert')).toHaveTextContent(MARKING_MESSAGES.scoreOutOfRange);
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByRole('button', { name: '提交并阅下一份' }));
    expect(server.scores()).toEqual([]);
    // Escape clears; a score in range goes through.
    await userEvent.keyboard('{Escape}9{Enter}');
    await waitFor(() => expect(server.scores()).toHaveLength(1));
  });

  it('asks for a score before submitting an empty one', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('请输入分数');
    expect(server.scores()).toEqual([]);
  });

  it('places a tick where the image is clicked, as fractions, and sends it with the score', async () => {
    const server = markingServer();
    render(server);
    const image = await answerShown(501);
    vi.spyOn(image, 'getBoundingClientRect').mockReturnValue({
      left: 100,
      top: 50,
      width: 400,
      height: 200,
      right: 500,
      bottom: 250,
      x: 100,
      y: 50,
      toJSON: () => ({}),
    });
    await userEvent.click(screen.getByRole('radio', { name: '✓ 勾' }));
    fireEvent.click(screen.getByRole('application', { name: '第 14 题答卷' }), { clientX: 200, clientY: 150 });
    expect(screen.getByRole('note', { name: '勾' })).toHaveStyle({ left: '25%', top: '50%' });
    await userEvent.click(screen.getByRole('radio', { name: '批注' }));
    fireEvent.click(screen.getByRole('application', { name: '第 14 题答卷' }), { clientX: 500, clientY: 250 });
    await userEvent.type(await screen.findByRole('textbox', { name: '批注内容' }), '步骤不完整');
    await userEvent.click(screen.getByRole('button', { name: '添加' }));
    expect(screen.getByRole('note', { name: '批注：步骤不完整' })).toBeInTheDocument();
    await userEvent.keyboard('6{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([
        [
          '/api/marking/tasks/1/score',
          {
            score: 6,
            annotations: [
              { kind: 'tick', x: 0.25, y: 0.5 },
              { kind: 'comment', x: 1, y: 1, text: '步骤不完整' },
            ],
            problem: false,
          },
        ],
      ]),
    );
  });

  it('says the question is all marked when there is no next answer, with the way back to /correct', async () => {
    const server = markingServer({ queue: [task(1)] });
    render(server);
    await answerShown(501);
    await userEvent.keyboard('10{Enter}');
    expect(await screen.findByText('本题已全部阅完')).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: '返回阅卷' }).at(-1)!);
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/correct?homeworkId=3');
  });

  it("shows a personalised set's own question, key and full score above each answer, and nothing for an ordinary one", async () => {
    const own = (questionId: number, stem: string, answer: string, score: number) => ({
      questionId,
      type: 'subjective',
      stem,
      options: [],
      answer: [answer],
      analysis: `解析${questionId}`,
      score,
    });
    const server = markingServer({
      queue: [
        task(1, { maxScore: 4, ownQuestion: own(71, '张三的题：化简 $\\frac{2}{4}$', '1/2', 4) }),
        task(2, { maxScore: 8, ownQuestion: own(72, '李四的题：解方程 x+1=3', 'x=2', 8) }),
        task(3),
      ],
    });
    render(server);
    await answerShown(501);
    const first = screen.getByRole('region', { name: '该生本题' });
    expect(first).toHaveTextContent('该生的第 14 题 · 满分 4 分');
    expect(first).toHaveTextContent('张三的题：化简');
    expect(within(first).getByLabelText('参考答案')).toHaveTextContent('1/2');
    expect(within(first).getByLabelText('解析')).toHaveTextContent('解析71');
    // The limit is this student's full score: 5 is refused on the desk, 4 is sent.
    await userEvent.keyboard('5{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(MARKING_MESSAGES.scoreOutOfRange);
    expect(server.scores()).toEqual([]);
    await userEvent.keyboard('{Escape}4{Enter}');
    await answerShown(502);
    const second = await screen.findByRole('region', { name: '该生本题' });
    expect(second).toHaveTextContent('该生的第 14 题 · 满分 8 分');
    expect(second).toHaveTextContent('李四的题：解方程 x+1=3');
    expect(within(second).getByLabelText('参考答案')).toHaveTextContent('x=2');
    await userEvent.keyboard('8{Enter}');
    await answerShown(503);
    expect(screen.queryByRole('region', { name: '该生本题' })).toBeNull();
  });

  it('counts my marked answers alike in the header and the body when nothing is left on opening', async () => {
    render(markingServer({ queue: [], history: [task(2, { score: 4 }), task(1, { score: 9 })] }));
    expect(await screen.findByText('本题已全部阅完')).toBeInTheDocument();
    expect(await screen.findByText(/您共阅了 2 份/)).toBeInTheDocument();
    expect(screen.getByLabelText('我的进度')).toHaveTextContent('我已阅 2 份');
  });

  it('goes back with ArrowLeft to change a given score, and forward again with ArrowRight', async () => {
    const server = markingServer({ queue: [task(3)], history: [task(2, { score: 4 }), task(1, { score: 9 })] });
    render(server);
    await answerShown(503);
    await userEvent.keyboard('{ArrowLeft}');
    await answerShown(502);
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('4');
    await userEvent.keyboard('{ArrowLeft}');
    await answerShown(501);
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('9');
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('4');
    // Typing replaces the old score; Enter saves it on the same task and moves forward to the current answer.
    await userEvent.keyboard('5{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([['/api/marking/tasks/2/score', { score: 5, annotations: [], problem: false }]]),
    );
    await waitFor(() => expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('—'));
    expect(screen.getByRole('button', { name: '提交并阅下一份' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '阅卷历史' })).getByText('5 分')).toBeInTheDocument();
  });

  it('sends a double Enter once, keeps the score when the submit fails, and lets the teacher retry', async () => {
    let release = () => undefined as void;
    const gate = () => new Promise<void>((resolve) => (release = resolve));
    const server = markingServer({ gate, failScores: 1 });
    render(server);
    await answerShown(501);
    await userEvent.keyboard('7{Enter}');
    expect(screen.getByRole('button', { name: /提交并阅下一份/ })).toBeDisabled();
    await userEvent.keyboard('{Enter}{Enter}');
    await userEvent.click(screen.getByRole('button', { name: /提交并阅下一份/ }));
    expect(server.scores()).toHaveLength(1);
    release();
    // The failure was toasted by the client; the typed score stays for another try.
    await waitFor(() => expect(screen.getByRole('button', { name: /提交并阅下一份/ })).toBeEnabled());
    expect(screen.getByRole('status', { name: '当前分数' })).toHaveTextContent('7');
    await userEvent.keyboard('{Enter}');
    release();
    await answerShown(502);
    expect(server.scores()).toEqual([
      ['/api/marking/tasks/1/score', { score: 7, annotations: [], problem: false }],
      ['/api/marking/tasks/1/score', { score: 7, annotations: [], problem: false }],
    ]);
  });

  it('moves on to the next answer when a colleague took this one', async () => {
    const server = markingServer({ failScores: 1, failure: new ApiRequestError(MARKING_MESSAGES.taskTaken, 409, 409) });
    render(server);
    await answerShown(501);
    await userEvent.keyboard('3{Enter}');
    await answerShown(502);
    expect(server.scores()).toHaveLength(1);
    expect(screen.getByText('我已阅 0 份 · 剩余 1 份')).toBeInTheDocument();
  });

  it('records an error cause with the score in one click or Alt+digit, and none with a full score', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.keyboard('{Alt>}2{/Alt}');
    expect(screen.getByRole('button', { name: '计算' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.keyboard('3{Enter}');
    await answerShown(502);
    await userEvent.click(screen.getByRole('button', { name: '概念' }));
    await userEvent.click(screen.getByRole('button', { name: '给 10 分' }));
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([
        ['/api/marking/tasks/1/score', { score: 3, annotations: [], problem: false, errorCause: '计算' }],
        ['/api/marking/tasks/2/score', { score: 10, annotations: [], problem: false }],
      ]),
    );
  });

  it('sends a problem paper flagged, at 0 when no score was typed', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    await userEvent.click(screen.getByRole('checkbox', { name: '问题卷' }));
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.scores()).toEqual([['/api/marking/tasks/1/score', { score: 0, annotations: [], problem: true }]]),
    );
  });

  it('zooms with the buttons and the wheel within the viewer limits', async () => {
    const server = markingServer();
    render(server);
    await answerShown(501);
    const zoom = screen.getByLabelText('缩放比例');
    expect(zoom).toHaveTextContent('100%');
    await userEvent.click(screen.getByRole('button', { name: '放大' }));
    expect(zoom).toHaveTextContent('120%');
    const viewport = screen.getByRole('application', { name: '第 14 题答卷' });
    for (let i = 0; i < 60; i += 1) fireEvent.wheel(viewport, { deltaY: 100 });
    expect(zoom).toHaveTextContent('1.0%');
    for (let i = 0; i < 80; i += 1) fireEvent.wheel(viewport, { deltaY: -100 });
    expect(zoom).toHaveTextContent('10000%');
  });

  it('skips an answer: the next request names it, and 阅跳过的答卷 comes back to it at the end', async () => {
    const server = markingServer({ queue: [task(1), task(2)] });
    render(server);
    await answerShown(501);
    await userEvent.click(screen.getByRole('button', { name: '跳过这份' }));
    await answerShown(502);
    expect(server.postJson).toHaveBeenLastCalledWith(
      '/api/marking/homework/3/questions/14/next',
      { skip: [1] },
      expect.anything(),
    );
    await userEvent.keyboard('4{Enter}');
    expect(await screen.findByText('还有 1 份跳过的答卷没有阅')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '阅跳过的答卷' }));
    await waitFor(() =>
      expect(server.postJson).toHaveBeenLastCalledWith('/api/marking/homework/3/questions/14/next', {}, expect.anything()),
    );
  });
});

describe('/write in arbitration mode', () => {
  it("shows the earlier marks, scores the owner's arbitration and goes through the question's list", async () => {
    const waiting = [
      task(30, { round: 4, otherScores: [4, 9, 6.5] }),
      task(31, { round: 4, otherScores: [2, 8, 5] }),
      task(40, { round: 4, questionNo: 15, otherScores: [1, 9] }),
    ];
    const fake = fakeHttp((method: Method, url: string, body: unknown) => {
      if (method === 'GET' && url === '/api/marking/homework/3/arbitration') return waiting;
      if (method === 'GET' && url === '/api/marking/homework/3/questions/14/history') return [];
      const scored = /^\/api\/marking\/tasks\/(\d+)\/score$/.exec(url);
      if (method === 'POST' && scored) {
        const index = waiting.findIndex((t) => t.taskId === Number(scored[1]));
        const [done] = waiting.splice(index, 1);
        return { ...done!, score: (body as ScoreSubmit).score };
      }
      throw new Error(`unexpected ${method} ${url}`);
    });
    markingRequests = () => fake.getBlob.mock.calls.map(([url]) => String(url));
    renderMarking(`${ROUTE}&mode=arbitration`, fake.http);
    await answerShown(530);
    expect(screen.getByRole('heading', { name: /第 14 题 · 仲裁/ })).toHaveTextContent('仲裁');
    expect(screen.getByText('此前评分：一评 4 分 · 二评 9 分 · 三评 6.5 分')).toBeInTheDocument();
    expect(screen.getByText('我已阅 0 份 · 剩余 2 份')).toBeInTheDocument();
    await userEvent.keyboard('6{Enter}');
    await answerShown(531);
    expect(screen.getByText('此前评分：一评 2 分 · 二评 8 分 · 三评 5 分')).toBeInTheDocument();
    await userEvent.keyboard('5{Enter}');
    expect(await screen.findByText('本题已全部仲裁完')).toBeInTheDocument();
    expect(fake.postJson.mock.calls.map(([url, body]) => [url, (body as ScoreSubmit).score])).toEqual([
      ['/api/marking/tasks/30/score', 6],
      ['/api/marking/tasks/31/score', 5],
    ]);
    await userEvent.click(screen.getAllByRole('button', { name: '返回阅卷' }).at(-1)!);
    expect(screen.getByRole('status', { name: '当前地址' })).toHaveTextContent('/correct?homeworkId=3&tab=arbitration');
  });
});
