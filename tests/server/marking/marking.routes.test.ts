import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MARKING_MESSAGES,
  MARKING_PROGRESS_EVENT,
  type MarkingOverview,
  markingOverviewSchema,
  type MarkingTask,
  markingTaskSchema,
  type ScoreTable,
} from '../../../src/shared/contract/marking';
import { homework, markingTasks } from '../../../server/db/schema';
import { failure } from '../accounts-helper';
import { createOtherSchool } from '../papers/papers-helper';
import {
  addTeacher,
  type Broadcast,
  type Caller,
  callerFor,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  recordBroadcasts,
  scanAndRecognise,
  scannedHomework as scannedHomeworkOf,
  sheetOf,
  type TestHomework,
} from './marking-helper';

describe('marking endpoints', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let director: Caller;
  let creator: Caller;
  let extra: Caller[];
  let bystander: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let broadcasts: Broadcast[];
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    director = await callerFor(app(), 'director');
    creator = await callerFor(app(), 'creator');
    extra = [];
    for (let i = 1; i <= 5; i += 1) extra.push(await addTeacher(app(), `marker${i}`, `阅卷老师${i}`, teacher.orgId));
    bystander = await addTeacher(app(), 'bystander', '旁观老师', teacher.orgId);
    other = await createOtherSchool(app());
    broadcasts = recordBroadcasts(app());
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** A homework of `teacher` with `count` students' sheets scanned and recognised. */
  async function scannedHomework(count: number): Promise<TestHomework> {
    const hw = await scannedHomeworkOf(app(), engine, teacher, count);
    return { ...hw, students: hw.students.slice(0, count) };
  }

  const overviewOf = async (caller: Caller, id: number): Promise<MarkingOverview> =>
    markingOverviewSchema.parse(data(await caller({ method: 'GET', url: `/api/marking/homework/${id}` })));

  function assign(caller: Caller | typeof other.call, id: number, payload: unknown) {
    return caller({ method: 'PUT', url: `/api/marking/homework/${id}/assignments`, payload: payload as object });
  }

  function next(caller: Caller, id: number, no: number, skip?: number[]) {
    return caller({ method: 'POST', url: `/api/marking/homework/${id}/questions/${no}/next`, payload: skip ? { skip } : {} });
  }

  async function nextTask(caller: Caller, id: number, no: number, skip?: number[]): Promise<MarkingTask | null> {
    const task = data(await next(caller, id, no, skip));
    return task === null ? null : markingTaskSchema.parse(task);
  }

  function submit(caller: Caller | typeof other.call, taskId: number, payload: unknown) {
    return caller({ method: 'POST', url: `/api/marking/tasks/${taskId}/score`, payload: payload as object });
  }

  async function scoreTable(id: number): Promise<ScoreTable> {
    return data<ScoreTable>(await teacher({ method: 'GET', url: `/api/marking/homework/${id}/scores` }));
  }

  /** The final score of question `no` per answer id. */
  async function finals(id: number, no: number): Promise<Map<number, number | null>> {
    const rows = await app().database.db.execute(sql`select a.id, s.score from answers a left join question_scores s
        on s.homework_id = a.homework_id and s.student_id = a.student_id and s.question_no = a.question_no
        where a.homework_id = ${id} and a.question_no = ${no} order by a.id`);
    const list = (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows) as {
      id: number;
      score: number | null;
    }[];
    return new Map(list.map((row) => [row.id, row.score]));
  }

  describe('overview', () => {
    let hw: TestHomework;
    beforeAll(async () => {
      hw = await scannedHomework(3);
    });

    it('shows every question with its progress, the recognition counts and the teachers to assign', async () => {
      const overview = await overviewOf(teacher, hw.id);
      expect(overview).toMatchObject({ homeworkId: hw.id, isOwner: true, status: 'marking', partialCredit: 0.5 });
      expect(overview.questions.map((q) => [q.questionNo, q.type, q.manual, q.total, q.done])).toEqual([
        [1, 'single', false, 3, 3],
        [2, 'multiple', false, 3, 3],
        [3, 'judge', false, 3, 3],
        [4, 'blank', true, 3, 0],
        [5, 'subjective', true, 3, 0],
      ]);
      // Without assignments the owner marks.
      expect(overview.questions[4]!.markers).toEqual([{ userId: teacher.userId, name: '王老师', marked: 0 }]);
      expect(overview.recognition).toEqual({ stored: 3, recognised: 3, pending: 0, review: 0 });
      expect(overview.teachers.map((t) => t.name)).toEqual(expect.arrayContaining(['王老师', '李主任', '张校长', '阅卷老师1']));
      expect(overview.teachers.map((t) => t.name)).not.toContain('赵老师');
    });

    it('tells other teachers they are not the owner, and answers 404 to another school', async () => {
      expect((await overviewOf(director, hw.id)).isOwner).toBe(false);
      for (const [method, url] of [
        ['GET', `/api/marking/homework/${hw.id}`],
        ['POST', `/api/marking/homework/${hw.id}/questions/5/next`],
        ['GET', `/api/marking/homework/${hw.id}/questions/5/history`],
        ['GET', `/api/marking/homework/${hw.id}/arbitration`],
      ] as const) {
        expect(failure(await other.call({ method, url, payload: method === 'POST' ? {} : undefined })).status, url).toBe(404);
      }
      expect(failure(await teacher({ method: 'GET', url: '/api/marking/homework/abc' })).status).toBe(400);
      // Beyond a database integer: a bad request, not a server error.
      for (const url of [
        '/api/marking/homework/9999999999',
        '/api/marking/homework/1/questions/9999999999/history',
        '/api/marking/answers/9999999999/image',
      ]) {
        expect(failure(await teacher({ method: 'GET', url })).status, url).toBe(400);
      }
      const skip = await teacher({
        method: 'POST',
        url: `/api/marking/homework/${hw.id}/questions/5/next`,
        payload: { skip: [9_999_999_999] },
      });
      expect(failure(skip).status).toBe(400);
    });
  });

  describe('assignments', () => {
    let hw: TestHomework;
    beforeAll(async () => {
      hw = await scannedHomework(2);
    });

    it('lets only the owner assign', async () => {
      const payload = { questions: [{ questionNo: 4, userIds: [director.userId], doubleMarking: false, tolerance: 0 }] };
      expect(failure(await assign(director, hw.id, payload))).toEqual({ status: 403, msg: MARKING_MESSAGES.notOwner });
      expect(failure(await assign(other.call, hw.id, payload)).status).toBe(404);
    });

    it.each([
      [{ questions: [] }, '请求参数错误：questions：请至少设置一道题'],
      [
        { questions: [{ questionNo: 4, userIds: [], doubleMarking: false, tolerance: -1 }] },
        '请求参数错误：questions.0.tolerance：误差不能小于 0',
      ],
      [
        { questions: [{ questionNo: 1, userIds: [], doubleMarking: false, tolerance: 0 }] },
        `第 1 题：${MARKING_MESSAGES.notSubjective}`,
      ],
      [
        { questions: [{ questionNo: 9, userIds: [], doubleMarking: false, tolerance: 0 }] },
        `第 9 题：${MARKING_MESSAGES.unknownQuestion}`,
      ],
      [
        { questions: [{ questionNo: 5, userIds: [1], doubleMarking: true, tolerance: 1 }] },
        `第 5 题：${MARKING_MESSAGES.doubleMarkingNeedsTwo}`,
      ],
      [
        { questions: [{ questionNo: 5, userIds: [], doubleMarking: false, tolerance: 11 }] },
        `第 5 题：${MARKING_MESSAGES.toleranceTooLarge}`,
      ],
      [
        { questions: [{ questionNo: 4, userIds: [], doubleMarking: false, tolerance: 0 }], partialCredit: 2 },
        '请求参数错误：partialCredit：部分得分比例不能大于 1',
      ],
    ])('answers 400 for %j', async (payload, msg) => {
      expect(failure(await assign(teacher, hw.id, payload))).toEqual({ status: 400, msg });
    });

    it('refuses a teacher of another school', async () => {
      const [otherTeacher] = await app()
        .database.db.execute(sql`select id from users where username = 'other'`)
        .then((r) => (Array.isArray(r) ? r : (r as unknown as { rows: { id: number }[] }).rows));
      const payload = {
        questions: [{ questionNo: 4, userIds: [(otherTeacher as { id: number }).id], doubleMarking: false, tolerance: 0 }],
      };
      expect(failure(await assign(teacher, hw.id, payload))).toEqual({ status: 400, msg: MARKING_MESSAGES.notTeacher });
    });

    it('saves markers and double marking, and re-scores multiple choice with a new partial credit', async () => {
      // A third student chose only A of A and C: half the score by default.
      const partial = hw.students.length;
      await scanAndRecognise(app(), engine, teacher.token, hw.id, [
        sheetOf(hw.id, (await scoreTable(hw.id)).students[partial]!.code, { 2: ['A'] }),
      ]);
      const before = await scoreTable(hw.id);
      expect(before.students[0]!.scores['2']).toBe(4);
      expect(before.students[partial]!.scores['2']).toBe(2);
      const overview = markingOverviewSchema.parse(
        data(
          await assign(teacher, hw.id, {
            questions: [
              { questionNo: 4, userIds: [director.userId], doubleMarking: false, tolerance: 0 },
              { questionNo: 5, userIds: [director.userId, creator.userId], doubleMarking: true, tolerance: 2 },
            ],
            partialCredit: 0.25,
          }),
        ),
      );
      expect(overview.partialCredit).toBe(0.25);
      const five = overview.questions.find((q) => q.questionNo === 5)!;
      expect(five).toMatchObject({ doubleMarking: true, tolerance: 2, assigned: [director.userId, creator.userId] });
      expect(five.markers.map((m) => m.userId)).toEqual([director.userId, creator.userId]);
      const after = await scoreTable(hw.id);
      expect(after.students[0]!.scores['2']).toBe(4);
      expect(after.students[partial]!.scores['2']).toBe(1);
      const tasks = await app()
        .database.db.select()
        .from(markingTasks)
        .where(and(eq(markingTasks.homeworkId, hw.id), eq(markingTasks.questionNo, 5)));
      expect(tasks.map((t) => t.round).sort()).toEqual([1, 1, 1, 2, 2, 2]);
    });
  });

  describe('reassigning', () => {
    it('releases the answer a teacher holds when the owner takes them off the question', async () => {
      const hw = await scannedHomework(1);
      const [first, second] = [extra[0]!, extra[1]!];
      const single = (userIds: number[]) => ({
        questions: [{ questionNo: 5, userIds, doubleMarking: false, tolerance: 0 }],
      });
      data(await assign(teacher, hw.id, single([first.userId])));
      const held = (await nextTask(first, hw.id, 5))!;
      expect(held).not.toBeNull();
      data(await assign(teacher, hw.id, single([second.userId])));
      // The only answer is free at once for the new marker, not after the first one's claim expires.
      expect((await nextTask(second, hw.id, 5))?.taskId).toBe(held.taskId);
      const [row] = await app().database.db.select().from(markingTasks).where(eq(markingTasks.id, held.taskId));
      expect(row!.claimedBy).toBe(second.userId);
    });
  });

  describe('single marking', () => {
    let hw: TestHomework;
    let markers: Caller[];
    beforeAll(async () => {
      hw = await scannedHomework(8);
      markers = [director, creator, ...extra];
      data(
        await assign(teacher, hw.id, {
          questions: [{ questionNo: 4, userIds: markers.map((m) => m.userId), doubleMarking: false, tolerance: 0 }],
        }),
      );
    });

    it('refuses a teacher who is not assigned, an objective question and an unknown one', async () => {
      expect(failure(await next(bystander, hw.id, 4))).toEqual({ status: 403, msg: MARKING_MESSAGES.notAssigned });
      expect(failure(await next(director, hw.id, 1))).toEqual({ status: 400, msg: MARKING_MESSAGES.notSubjective });
      expect(failure(await next(director, hw.id, 99))).toEqual({ status: 404, msg: MARKING_MESSAGES.unknownQuestion });
      expect(failure(await next(director, hw.id, 4, [0])).status).toBe(400);
    });

    it('never hands the same answer to two teachers at once; one teacher asking twice keeps one answer', async () => {
      const responses = await Promise.all(markers.flatMap((m) => [next(m, hw.id, 4), next(m, hw.id, 4)]));
      const tasks = responses.map((r) => markingTaskSchema.parse(data(r)));
      for (let i = 0; i < markers.length; i += 1) expect(tasks[2 * i]!.taskId).toBe(tasks[2 * i + 1]!.taskId);
      const answersHeld = markers.map((_, i) => tasks[2 * i]!.answerId);
      expect(new Set(answersHeld).size).toBe(markers.length);
      expect(tasks[0]).toMatchObject({ homeworkId: hw.id, questionNo: 4, maxScore: 4, round: 1, score: null, problem: false });
    });

    it('checks the score against the full score and the payload', async () => {
      const mine = (await nextTask(director, hw.id, 4))!;
      expect(failure(await submit(director, mine.taskId, { score: 5 }))).toEqual({
        status: 400,
        msg: MARKING_MESSAGES.scoreOutOfRange,
      });
      expect(failure(await submit(director, mine.taskId, { score: -1 })).msg).toBe('请求参数错误：score：分数不能小于 0');
      expect(failure(await submit(director, mine.taskId, {})).msg).toBe('请求参数错误：score：不能为空');
      expect(
        failure(await submit(director, mine.taskId, { score: 1, annotations: [{ kind: 'comment', x: 0.5, y: 0.5, text: ' ' }] }))
          .msg,
      ).toBe('请求参数错误：annotations.0.text：请输入批注内容');
      expect(failure(await submit(creator, mine.taskId, { score: 1 }))).toEqual({ status: 409, msg: MARKING_MESSAGES.taskTaken });
      expect(failure(await submit(other.call, mine.taskId, { score: 1 })).status).toBe(404);
      expect(failure(await submit(director, 999_999, { score: 1 })).status).toBe(404);
    });

    it('takes a score once, idempotently, lets its marker change it and nobody else', async () => {
      const mine = (await nextTask(director, hw.id, 4))!;
      const annotations = [
        { kind: 'tick', x: 0.1, y: 0.2 },
        { kind: 'comment', x: 0.5, y: 0.5, text: '步骤完整' },
      ];
      const first = markingTaskSchema.parse(data(await submit(director, mine.taskId, { score: 3, annotations })));
      expect(first).toMatchObject({ taskId: mine.taskId, score: 3, annotations, progress: { mine: 1 } });
      const retry = markingTaskSchema.parse(data(await submit(director, mine.taskId, { score: 3, annotations })));
      expect(retry).toEqual(first);
      expect((await finals(hw.id, 4)).get(mine.answerId)).toBe(3);

      expect(failure(await submit(creator, mine.taskId, { score: 0 }))).toEqual({ status: 409, msg: MARKING_MESSAGES.taskTaken });
      const changed = markingTaskSchema.parse(data(await submit(director, mine.taskId, { score: 2.5 })));
      expect(changed.score).toBe(2.5);
      expect((await finals(hw.id, 4)).get(mine.answerId)).toBe(2.5);

      const history = data<MarkingTask[]>(
        await director({ method: 'GET', url: `/api/marking/homework/${hw.id}/questions/4/history` }),
      );
      expect(history.map((t) => [t.taskId, t.score])).toEqual([[mine.taskId, 2.5]]);
      const progress = broadcasts.filter((b) => b.event === MARKING_PROGRESS_EVENT).at(-1)!;
      expect(progress).toEqual({
        room: `org:${teacher.orgId}`,
        event: MARKING_PROGRESS_EVENT,
        payload: { homeworkId: hw.id, questionNo: 4, done: 1, total: 8 },
      });
    });

    it('hands out another answer when one is skipped, and frees the skipped one', async () => {
      const held = (await nextTask(creator, hw.id, 4))!;
      const skippedTo = await nextTask(creator, hw.id, 4, [held.taskId]);
      expect(skippedTo?.taskId).not.toBe(held.taskId);
      const [row] = await app().database.db.select().from(markingTasks).where(eq(markingTasks.id, held.taskId));
      expect(row!.claimedBy).toBeNull();
    });

    it('gives an answer whose claim expired to the next teacher', async () => {
      // The answer the creator skipped goes to the director, so no answer is free.
      const freed = (await nextTask(director, hw.id, 4))!;
      expect(freed.progress).toEqual({ mine: 1, left: 1 });
      const held = (await nextTask(extra[0]!, hw.id, 4))!;
      await app()
        .database.db.update(markingTasks)
        .set({ claimExpiresAt: sql`now() - interval '1 second'` })
        .where(eq(markingTasks.id, held.taskId));
      // Every teacher but the first holds one; the expired one is the only answer left.
      const taken = await nextTask(extra[1]!, hw.id, 4, [(await nextTask(extra[1]!, hw.id, 4))!.taskId]);
      expect(taken?.answerId).toBe(held.answerId);
    });

    it('serves the cut-out answer image to the school only', async () => {
      const task = (await nextTask(director, hw.id, 4))!;
      const image = await director({ method: 'GET', url: `/api/marking/answers/${task.answerId}/image` });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      expect(image.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      expect(failure(await other.call({ method: 'GET', url: `/api/marking/answers/${task.answerId}/image` })).status).toBe(404);
      expect(failure(await director({ method: 'GET', url: '/api/marking/answers/999999/image' })).status).toBe(404);
    });

    it('answers null when nothing is left, and finishes the homework once everything is scored and the rest are absent', async () => {
      // Owner marks question 5 (no assignment); the assigned markers finish question 4.
      for (const marker of [...markers, teacher]) {
        const no = marker === teacher ? 5 : 4;
        for (let task = await nextTask(marker, hw.id, no); task; task = await nextTask(marker, hw.id, no)) {
          data(await submit(marker, task.taskId, { score: 1 }));
        }
      }
      expect(await nextTask(director, hw.id, 4)).toBeNull();
      const table = await scoreTable(hw.id);
      expect(table.students.filter((s) => s.complete).length).toBe(8);
      const statusOf = async () => (await app().database.db.select().from(homework).where(eq(homework.id, hw.id)))[0]!.status;
      // Everything scanned is marked, but the class's other students were never scanned: not finished.
      expect(await statusOf()).toBe('marking');
      const { unscanned } = (await overviewOf(teacher, hw.id)).students!;
      expect(unscanned.length).toBeGreaterThan(0);
      for (const student of unscanned) {
        data(
          await teacher({
            method: 'PUT',
            url: `/api/marking/homework/${hw.id}/students/${student.studentId}/absence`,
            payload: { absent: true },
          }),
        );
      }
      expect(await statusOf()).toBe('finished');
    });
  });

  describe('double marking', () => {
    let hw: TestHomework;
    /** Question 5, tolerance 2: director and creator mark rounds 1 and 2, teacher (the owner) marks the third. */
    beforeAll(async () => {
      hw = await scannedHomework(4);
      data(
        await assign(teacher, hw.id, {
          questions: [{ questionNo: 5, userIds: [director.userId, creator.userId], doubleMarking: true, tolerance: 2 }],
        }),
      );
    });

    async function markAll(caller: Caller, scoreOf: (answerIndex: number) => number, problem = false) {
      const ids = [...(await finals(hw.id, 5)).keys()].sort((a, b) => a - b);
      const seen: MarkingTask[] = [];
      for (let task = await nextTask(caller, hw.id, 5); task; task = await nextTask(caller, hw.id, 5)) {
        const index = ids.indexOf(task.answerId);
        data(await submit(caller, task.taskId, { score: scoreOf(index), problem: problem && index === 3 }));
        seen.push(task);
      }
      return { ids, seen };
    }

    it('has two different teachers mark every answer; within tolerance the mean is final', async () => {
      const first = await markAll(director, (i) => [5, 2, 0, 4][i]!);
      expect(first.seen.length).toBe(4);
      const second = await markAll(creator, (i) => [6, 8, 10, 4][i]!);
      expect(second.seen.length).toBe(4);
      expect(new Set([...first.seen, ...second.seen].map((t) => t.round))).toEqual(new Set([1, 2]));
      const scores = await finals(hw.id, 5);
      expect([...scores.values()]).toEqual([5.5, null, null, 4]);
    });

    it('sends answers beyond the tolerance to a third marking by another teacher', async () => {
      expect(await nextTask(director, hw.id, 5)).toBeNull();
      const third = await markAll(teacher, (i) => [0, 7, 5, 0][i]!);
      expect(third.seen.map((t) => t.round)).toEqual([3, 3]);
      const scores = await finals(hw.id, 5);
      // 2 / 8 / 7: the third agrees with 8. 0 / 10 / 5: it agrees with neither, so the owner arbitrates.
      expect([...scores.values()]).toEqual([5.5, 7.5, null, 4]);
    });

    it("lists disagreeing answers for the owner only, with the earlier marks, and takes the arbiter's score", async () => {
      expect(failure(await director({ method: 'GET', url: `/api/marking/homework/${hw.id}/arbitration` }))).toEqual({
        status: 403,
        msg: MARKING_MESSAGES.notArbiter,
      });
      const list = data<MarkingTask[]>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/arbitration` })).map(
        (t) => markingTaskSchema.parse(t),
      );
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ round: 4, otherScores: [0, 10, 5], score: null });
      expect((await overviewOf(teacher, hw.id)).questions[4]!.arbitration).toBe(1);
      expect(failure(await submit(director, list[0]!.taskId, { score: 6 }))).toEqual({
        status: 403,
        msg: MARKING_MESSAGES.notArbiter,
      });
      const arbitrated = markingTaskSchema.parse(data(await submit(teacher, list[0]!.taskId, { score: 6 })));
      expect(arbitrated.otherScores).toEqual([0, 10, 5]);
      expect([...(await finals(hw.id, 5)).values()]).toEqual([5.5, 7.5, 6, 4]);
      expect(data(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/arbitration` }))).toEqual([]);
    });

    it('re-decides when a marker changes an earlier score through the history', async () => {
      const history = data<MarkingTask[]>(
        await creator({ method: 'GET', url: `/api/marking/homework/${hw.id}/questions/5/history` }),
      );
      const ids = [...(await finals(hw.id, 5)).keys()].sort((a, b) => a - b);
      const secondAnswer = history.find((t) => t.answerId === ids[1])!;
      // 2 and 3 now agree: the third marking no longer counts.
      data(await submit(creator, secondAnswer.taskId, { score: 3 }));
      expect((await finals(hw.id, 5)).get(ids[1]!)).toBe(2.5);
    });

    it('lets the owner arbitrate at once when the owner is one of the two markers and nobody else is assigned', async () => {
      const small = await scannedHomework(1);
      data(
        await assign(teacher, small.id, {
          questions: [{ questionNo: 5, userIds: [teacher.userId, director.userId], doubleMarking: true, tolerance: 1 }],
        }),
      );
      for (const [marker, score] of [
        [teacher, 1],
        [director, 9],
      ] as const) {
        const task = (await nextTask(marker, small.id, 5))!;
        data(await submit(marker, task.taskId, { score }));
      }
      // No third marking (nobody else is assigned): an admin, who may take third markings, finds none.
      expect(await nextTask(creator, small.id, 5)).toBeNull();
      const list = data<MarkingTask[]>(await teacher({ method: 'GET', url: `/api/marking/homework/${small.id}/arbitration` }));
      expect(list.map((t) => [t.round, t.otherScores])).toEqual([[4, [1, 9]]]);
    });

    it('sends a problem paper to the owner', async () => {
      const history = data<MarkingTask[]>(
        await director({ method: 'GET', url: `/api/marking/homework/${hw.id}/questions/5/history` }),
      );
      const ids = [...(await finals(hw.id, 5)).keys()].sort((a, b) => a - b);
      const last = history.find((t) => t.answerId === ids[3])!;
      data(await submit(director, last.taskId, { score: 4, problem: true }));
      expect((await finals(hw.id, 5)).get(ids[3]!)).toBeNull();
      const overview = await overviewOf(teacher, hw.id);
      expect(overview.questions[4]).toMatchObject({ problems: 1, arbitration: 1 });
      const list = data<MarkingTask[]>(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/arbitration` }));
      expect(list.map((t) => t.answerId)).toEqual([ids[3]]);
    });
  });
});
