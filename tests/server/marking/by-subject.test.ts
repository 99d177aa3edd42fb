/**
 * 是否按学科分配试卷给任课老师: pages scanned with the setting go to the marking queue of the teacher of the
 * paper's subject in the student's class; an assignment made in 任务分配 still wins; pages scanned
 * without it go to the question's markers (the owner when nobody is assigned). 双评 needs an explicit
 * assignment of two markers or more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKING_MESSAGES, markingOverviewSchema, markingTaskSchema } from '../../../src/shared/contract/marking';
import { failure } from '../accounts-helper';
import {
  addTeacher,
  type Caller,
  callerFor,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  scannedHomework,
} from './marking-helper';

describe('marking assigned by subject (按学科分配)', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  // The homework's owner is the director (语文, directs 2026级); the class's maths teacher is `teacher`.
  let owner: Caller;
  let mathTeacher: Caller;
  let colleague: Caller;
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    owner = await callerFor(app(), 'director');
    mathTeacher = await callerFor(app(), 'teacher');
    colleague = await addTeacher(app(), 'colleague-bs', '同事老师', owner.orgId);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const next = (caller: Caller, id: number) =>
    caller({ method: 'POST', url: `/api/marking/homework/${id}/questions/5/next`, payload: {} });
  const overview = async (caller: Caller, id: number) =>
    markingOverviewSchema.parse(data(await caller({ method: 'GET', url: `/api/marking/homework/${id}` })));

  const scanned = (scanSubject: boolean) =>
    scannedHomework(app(), engine, owner, 2, { marks: { 1: ['B'] }, owner: 'director', scanSubject });

  it('hands the class subject teacher the answers, not the owner, and names them in the overview', async () => {
    const hw = await scanned(true);
    const task = markingTaskSchema.parse(data(await next(mathTeacher, hw.id)));
    data(await mathTeacher({ method: 'POST', url: `/api/marking/tasks/${task.taskId}/score`, payload: { score: 8 } }));
    // The owner leads: only third markings, and there are none.
    expect(data(await next(owner, hw.id))).toBeNull();
    expect(failure(await next(colleague, hw.id))).toEqual({ status: 403, msg: MARKING_MESSAGES.notAssigned });
    const q5 = (await overview(mathTeacher, hw.id)).questions[4]!;
    expect(q5.bySubject).toEqual([mathTeacher.userId]);
    expect(q5.done).toBe(1);
  });

  it('lets an assignment in 任务分配 take the question over', async () => {
    const hw = await scanned(true);
    data(
      await owner({
        method: 'PUT',
        url: `/api/marking/homework/${hw.id}/assignments`,
        payload: { questions: [{ questionNo: 5, userIds: [colleague.userId], doubleMarking: false, tolerance: 0 }] },
      }),
    );
    expect(markingTaskSchema.parse(data(await next(colleague, hw.id))).questionNo).toBe(5);
    expect(failure(await next(mathTeacher, hw.id)).status).toBe(403);
    expect((await overview(owner, hw.id)).questions[4]!.bySubject).toEqual([]);
  });

  it('refuses 双评 without two explicit markers (400 in Chinese) and leaves an unassigned question with the subject teacher', async () => {
    const hw = await scanned(true);
    const assign = (userIds: number[], doubleMarking: boolean) =>
      owner({
        method: 'PUT',
        url: `/api/marking/homework/${hw.id}/assignments`,
        payload: { questions: [{ questionNo: 5, userIds, doubleMarking, tolerance: 1 }] },
      });
    for (const userIds of [[], [colleague.userId], [colleague.userId, colleague.userId]]) {
      expect(failure(await assign(userIds, true))).toEqual({
        status: 400,
        msg: `第 5 题：${MARKING_MESSAGES.doubleMarkingNeedsTwo}`,
      });
    }
    // Saved without markers (and without 双评), the question stays 按学科分配: its subject teacher marks it.
    data(await assign([], false));
    expect((await overview(owner, hw.id)).questions[4]!.bySubject).toEqual([mathTeacher.userId]);
    expect(markingTaskSchema.parse(data(await next(mathTeacher, hw.id))).questionNo).toBe(5);
    // With two markers, 双评 is taken and the subject teacher no longer marks it.
    data(await assign([owner.userId, colleague.userId], true));
    expect(failure(await next(mathTeacher, hw.id)).status).toBe(403);
    expect(markingTaskSchema.parse(data(await next(colleague, hw.id))).questionNo).toBe(5);
  });

  it('leaves pages scanned without the setting to the owner', async () => {
    const hw = await scanned(false);
    expect(markingTaskSchema.parse(data(await next(owner, hw.id))).round).toBe(1);
    expect(data(await next(mathTeacher, hw.id))).toBeNull();
  });
});
