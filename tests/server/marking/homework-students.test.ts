import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MARKING_MESSAGES,
  type MarkingOverview,
  markingOverviewSchema,
  type ScoreTable,
  scoreTableSchema,
} from '../../../src/shared/contract/marking';
import { homework, homeworkClosures, subjects, teachingAssignments } from '../../../server/db/schema';
import { syncHomeworkStatus } from '../../../server/services/marking/marking-progress';
import { HOMEWORK_STATUS_MESSAGES } from '../../../server/services/papers/homework.service';
import { failure } from '../accounts-helper';
import type { createOtherSchool } from '../papers/papers-helper';
import {
  addTeacher,
  type Caller,
  createHomework,
  data,
  FakeEngine,
  type MarkingApp,
  markingSchool,
  markNext,
  RIGHT_OBJECTIVE_MARKS,
  scanAndRecognise,
  sheetOf,
  type TestHomework,
} from './marking-helper';

/** Students of a homework: who is missing, 缺考, and when a homework is 已完成. */
describe('homework students and status', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let colleague: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  const app = () => handle.app;

  beforeAll(async () => {
    ({ handle, teacher, other } = await markingSchool(engine));
    colleague = await addTeacher(app(), 'colleague', '同事老师', teacher.orgId);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const overviewOf = async (id: number): Promise<MarkingOverview> =>
    markingOverviewSchema.parse(data(await teacher({ method: 'GET', url: `/api/marking/homework/${id}` })));
  const statusOf = async (id: number) =>
    (await app().database.db.select({ status: homework.status }).from(homework).where(eq(homework.id, id)))[0]!.status;
  const absence = (caller: Caller | typeof other.call, id: number, studentId: number, absent: boolean) =>
    caller({ method: 'PUT', url: `/api/marking/homework/${id}/students/${studentId}/absence`, payload: { absent } });
  const closure = (caller: Caller, id: number, closed: boolean) =>
    caller({ method: 'PUT', url: `/api/marking/homework/${id}/closure`, payload: { closed } });

  /** Scans the first `count` students and marks their manual answers (owner marks when nobody is assigned). */
  async function scanAndMark(hw: TestHomework, count: number) {
    await scanAndRecognise(
      app(),
      engine,
      teacher.token,
      hw.id,
      hw.students.slice(0, count).map((s) => sheetOf(hw.id, s.code, RIGHT_OBJECTIVE_MARKS)),
    );
    for (const no of [4, 5]) {
      for (let i = 0; i < count; i += 1) await markNext(teacher, hw.id, no, 1);
    }
  }

  it('is not 已完成 while students of its classes are unscanned; lists them by name', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await scanAndMark(hw, 2);
    expect(await statusOf(hw.id)).toBe('marking');
    const overview = await overviewOf(hw.id);
    expect(overview.status).toBe('marking');
    expect(overview.students!.total).toBe(hw.students.length);
    expect(overview.students!.scanned).toBe(2);
    expect(overview.students!.unscanned.map((s) => s.name)).toEqual(hw.students.slice(2).map((s) => s.name));
    expect(overview.closed).toBe(false);
  });

  it('becomes 已完成 once every other student is marked absent, and reopens when one absence is undone', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await scanAndMark(hw, 2);
    const rest = hw.students.slice(2);
    // A colleague who neither teaches the class nor marks the homework may not record an absence; once
    // they teach its subject (数学) in the class, they may.
    expect(failure(await absence(colleague, hw.id, rest[0]!.id, true)).status).toBe(403);
    const db = app().database.db;
    const [math] = await db
      .select({ id: subjects.id })
      .from(subjects)
      .where(and(eq(subjects.orgId, teacher.orgId), eq(subjects.name, '数学')));
    await db
      .insert(teachingAssignments)
      .values({ orgId: teacher.orgId, userId: colleague.userId, classId: hw.classId, subjectId: math!.id });
    for (const student of rest) data(await absence(colleague, hw.id, student.id, true));
    await db.delete(teachingAssignments).where(eq(teachingAssignments.userId, colleague.userId));
    expect(await statusOf(hw.id)).toBe('finished');
    const overview = await overviewOf(hw.id);
    expect(overview.students!.unscanned).toEqual([]);
    expect(overview.students!.absent.map((s) => s.studentId)).toEqual(rest.map((s) => s.id));

    const table: ScoreTable = scoreTableSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/scores` })),
    );
    const absentRow = table.students.find((s) => s.studentId === rest[0]!.id)!;
    expect(absentRow).toMatchObject({ status: 'absent', total: null });
    expect(Object.values(absentRow.scores).every((score) => score === null)).toBe(true);

    const undone = markingOverviewSchema.parse(data(await absence(teacher, hw.id, rest[0]!.id, false)));
    expect(undone.students!.unscanned.map((s) => s.studentId)).toEqual([rest[0]!.id]);
    expect(await statusOf(hw.id)).toBe('marking');
  });

  it('refuses to mark a scanned student absent, a student outside the homework, and another school', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await scanAndMark(hw, 1);
    expect(failure(await absence(teacher, hw.id, hw.students[0]!.id, true))).toMatchObject({
      status: 400,
      msg: MARKING_MESSAGES.alreadyScanned,
    });
    expect(failure(await absence(teacher, hw.id, 2_147_483_647, true)).msg).toBe(MARKING_MESSAGES.notInHomework);
    expect(failure(await absence(other.call, hw.id, hw.students[1]!.id, true)).status).toBe(404);
    expect(failure(await absence(teacher, hw.id, 0, true)).status).toBe(400);
    expect(
      failure(
        await teacher({
          method: 'PUT',
          url: `/api/marking/homework/${hw.id}/students/${hw.students[1]!.id}/absence`,
          payload: {},
        }),
      ).status,
    ).toBe(400);
  });

  it('is 已完成 when the owner ends marking, whatever is missing; only the owner may', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await scanAndMark(hw, 1);
    expect(failure(await closure(colleague, hw.id, true))).toMatchObject({ status: 403, msg: MARKING_MESSAGES.notOwnerClose });
    const closed = markingOverviewSchema.parse(data(await closure(teacher, hw.id, true)));
    expect(closed).toMatchObject({ closed: true, status: 'finished' });
    const reopened = markingOverviewSchema.parse(data(await closure(teacher, hw.id, false)));
    expect(reopened).toMatchObject({ closed: false, status: 'marking' });
  });

  it('keeps 已完成 set from 作业列表 (PATCH status) through later status syncs, and 重新打开阅卷 takes it back', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await scanAndMark(hw, 1);
    expect(await statusOf(hw.id)).toBe('marking');
    const setStatus = (status: string) => teacher({ method: 'PATCH', url: `/api/homework/${hw.id}/status`, payload: { status } });

    expect(data<{ status: string }>(await setStatus('finished')).status).toBe('finished');
    // The next sync (any scan, mark or absence) decides from the closure, the one truth /correct shows too.
    await syncHomeworkStatus(app().database.db, teacher.orgId, hw.id);
    expect(await statusOf(hw.id)).toBe('finished');
    expect(await overviewOf(hw.id)).toMatchObject({ closed: true, status: 'finished' });

    expect(data<{ status: string }>(await setStatus('marking')).status).toBe('marking');
    await syncHomeworkStatus(app().database.db, teacher.orgId, hw.id);
    expect(await overviewOf(hw.id)).toMatchObject({ closed: false, status: 'marking' });
  });

  it('does not let a draft be set 已完成 or scanned', async () => {
    const hw = await createHomework(app(), teacher.orgId);
    await app().database.db.update(homework).set({ status: 'draft' }).where(eq(homework.id, hw.id));
    expect(
      failure(await teacher({ method: 'PATCH', url: `/api/homework/${hw.id}/status`, payload: { status: 'finished' } })),
    ).toEqual({ status: 400, msg: HOMEWORK_STATUS_MESSAGES.draftCannotFinish });
    const scanBatch = () =>
      teacher({ method: 'POST', url: '/api/scan/batches', payload: { homeworkId: hw.id, stationName: '扫描站' } });
    expect(failure(await scanBatch())).toEqual({ status: 400, msg: HOMEWORK_STATUS_MESSAGES.draftCannotScan });
    expect(await statusOf(hw.id)).toBe('draft');
    // Once 布置, its sheets are scanned.
    await app().database.db.update(homework).set({ status: 'assigned' }).where(eq(homework.id, hw.id));
    expect((await scanBatch()).statusCode).toBe(200);
  });

  // Needs two connections: PGlite runs one transaction at a time anyway.
  it.runIf(process.env.TEST_DB_KIND === 'postgres')(
    'a status sync that waits for another writer decides on what that writer committed (issue 12 §6)',
    async () => {
      const hw = await createHomework(app(), teacher.orgId);
      await scanAndMark(hw, 1);
      expect(await statusOf(hw.id)).toBe('marking');
      const db = app().database.db;
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const writer = db.transaction(async (tx) => {
        await tx.select().from(homework).where(eq(homework.id, hw.id)).for('update');
        locked();
        await held;
        await tx.insert(homeworkClosures).values({ homeworkId: hw.id, orgId: teacher.orgId, closedBy: teacher.userId });
      });
      await lockTaken;
      const syncing = syncHomeworkStatus(db, teacher.orgId, hw.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await writer;
      await syncing;
      expect(await statusOf(hw.id)).toBe('finished');
    },
  );
});
