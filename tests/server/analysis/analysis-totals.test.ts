/**
 * The analysis pre-aggregates (migration 0020: homework_student_totals, homework_class_question_totals)
 * follow every change of a final mark made through the real services: a manual mark given and changed by
 * its marker, a doubtful reading resolved on review, a student marked absent (缺考, never 0), and a
 * student moving class. After each step the aggregates equal a recomputation from answers and
 * question_scores, and the grade view (which reads the aggregates) agrees with the homework view (which
 * reads the marks). The same for 阅卷统计's pre-aggregate (migration 0021: marking_task_hours, and the
 * marking tasks' student): after every step it equals a recomputation from marking_tasks, and the report
 * equals the direct query over every task (percentile_cont) it replaced.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analysisOverviewSchema,
  correctScoreSchema,
  homeworkAnalysisSchema,
  type AnalysisOverview,
  type HomeworkAnalysis,
} from '../../../src/shared/contract/analysis';
import {
  type Caller,
  callerFor,
  createHomework,
  createMarkingApp,
  data,
  FakeEngine,
  type MarkingApp,
  reviewItemsFor,
  scanSheets,
  sheetOf,
  type TestHomework,
} from '../marking/marking-helper';

describe('analysis pre-aggregates follow the final marks', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let director: Caller;
  let hw: TestHomework;
  let schoolYearId: number;
  let mathId: number;
  const app = () => handle.app;
  const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
    ((await app().database.db.execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    handle = await createMarkingApp({ engine });
    teacher = await callerFor(app(), 'teacher');
    director = await callerFor(app(), 'director');
    hw = await createHomework(app(), teacher.orgId);
    const [meta] = await rowsOf<{ year: number; subject: number }>(
      sql`select p.school_year_id as year, p.subject_id as subject from homework h join papers p on p.id = h.paper_id where h.id = ${hw.id}`,
    );
    schoolYearId = Number(meta!.year);
    mathId = Number(meta!.subject);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  async function scan(sheets: Parameters<typeof scanSheets>[4]) {
    await scanSheets(app(), engine, teacher.token, hw.id, sheets);
    await app().marking.queue.idle();
  }

  /** Marks the next manual answer of question `no`; answers the task id. */
  async function markNext(no: number, score: number): Promise<number> {
    const task = data<{ taskId: number }>(
      await teacher({ method: 'POST', url: `/api/marking/homework/${hw.id}/questions/${no}/next`, payload: {} }),
    );
    data(await teacher({ method: 'POST', url: `/api/marking/tasks/${task.taskId}/score`, payload: { score } }));
    return task.taskId;
  }

  const homeworkView = async (): Promise<HomeworkAnalysis> =>
    homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${hw.id}` })));
  const gradeView = async (): Promise<AnalysisOverview> =>
    analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${schoolYearId}&subjectId=${mathId}` })),
    );

  /** The aggregates equal a recomputation from the rows they summarise (every homework of the school). */
  async function expectAggregatesExact() {
    const students = await rowsOf<Record<string, string>>(sql`
      select coalesce(a.homework_id, q.homework_id) as h, coalesce(a.student_id, q.student_id) as s,
        coalesce(a.n, 0)::int as answers, coalesce(q.n, 0)::int as scores, coalesce(q.total, 0)::float8 as total
      from (select homework_id, student_id, count(*) as n from answers group by 1, 2) a
      full join (select homework_id, student_id, count(*) as n, sum(score) as total from question_scores group by 1, 2) q
        on q.homework_id = a.homework_id and q.student_id = a.student_id
      order by 1, 2`);
    const kept = await rowsOf<Record<string, string>>(sql`
      select homework_id as h, student_id as s, answer_count as answers, score_count as scores, total::float8 as total
      from homework_student_totals order by 1, 2`);
    expect(kept).toEqual(students);
    const perClass = await rowsOf<Record<string, string>>(sql`
      select q.homework_id as h, s.class_id as c, q.question_no as no, count(*)::int as n, sum(q.score)::float8 as total,
        sum(q.score * q.score)::float8 as squares
      from question_scores q join students s on s.id = q.student_id group by 1, 2, 3 order by 1, 2, 3`);
    const keptPerClass = await rowsOf<Record<string, string>>(sql`
      select homework_id as h, class_id as c, question_no as no, score_count as n, total::float8 as total, total_squares::float8 as squares
      from homework_class_question_totals where score_count <> 0 or total <> 0 order by 1, 2, 3`);
    expect(keptPerClass).toEqual(perClass);
    // Marking tasks: each carries its answer's student; the hours count the scored tasks per class.
    expect(
      await rowsOf(
        sql`select t.id from marking_tasks t join answers a on a.id = t.answer_id where t.student_id is distinct from a.student_id`,
      ),
    ).toEqual([]);
    const hours = await rowsOf<Record<string, string>>(sql`
      select t.homework_id as h, s.class_id as c, floor(extract(epoch from t.scored_at) / 3600)::int as hour, count(*)::int as n
      from marking_tasks t join answers a on a.id = t.answer_id join students s on s.id = a.student_id
      where t.scored_at is not null group by 1, 2, 3 order by 1, 2, 3`);
    const keptHours = await rowsOf<Record<string, string>>(sql`
      select homework_id as h, class_id as c, hour, task_count as n from marking_task_hours where task_count <> 0 order by 1, 2, 3`);
    expect(keptHours).toEqual(hours);
    await expectCorrectScoreExact();
  }

  /** 阅卷统计 equals the direct query over every marking task (what it computed before the pre-aggregate). */
  async function expectCorrectScoreExact() {
    const report = correctScoreSchema.parse(
      data(await director({ method: 'GET', url: `/api/analysis/data-center/correct-score?schoolYearId=${schoolYearId}` })),
    );
    const direct = await rowsOf<{ classId: number; teacherId: number; n: number; onTime: number; median: number }>(sql`
      select s.class_id as "classId", h.created_by as "teacherId", count(*)::int as n,
        (count(*) filter (where t.scored_at < ((h.due_date + 1)::timestamp at time zone 'Asia/Shanghai')))::int as "onTime",
        percentile_cont(0.5) within group (order by extract(epoch from t.scored_at - (h.due_date::timestamp at time zone 'Asia/Shanghai')) / 3600) as median
      from marking_tasks t join answers a on a.id = t.answer_id join students s on s.id = a.student_id join homework h on h.id = t.homework_id
      join papers p on p.id = h.paper_id
      where p.school_year_id = ${schoolYearId} and t.scored_at is not null
        and not exists (select 1 from rehearse_sets rs where rs.homework_id = h.id) group by 1, 2`);
    for (const row of report.rows) {
      const expected = direct.find((d) => Number(d.classId) === row.classId && Number(d.teacherId) === row.teacherId);
      expect({ n: row.markedTasks, onTime: row.onTimeTasks, median: row.medianHoursAfterDue }).toEqual({
        n: expected?.n ?? 0,
        onTime: expected?.onTime ?? 0,
        median: expected ? Number(expected.median) : null,
      });
    }
    expect(report.rows.reduce((a, r) => a + r.markedTasks, 0)).toBe(direct.reduce((a, d) => a + d.n, 0));
    return report;
  }

  /** The grade view's row of the homework (from the aggregates) equals the homework view (from the marks). */
  async function expectViewsAgree(): Promise<{ view: HomeworkAnalysis; grade: AnalysisOverview }> {
    const [view, grade] = [await homeworkView(), await gradeView()];
    const row = grade.homework.find((h) => h.id === hw.id);
    if (view.summary.participation.participants === 0) expect(row).toBeUndefined();
    else expect(row!.summary).toEqual(view.summary);
    return { view, grade };
  }

  it('scanned and marked: the totals and the grade view follow', async () => {
    await expectAggregatesExact();
    const students = hw.students.slice(0, 3);
    await scan(students.map((s, i) => sheetOf(hw.id, s.code, { 1: [i === 0 ? 'B' : 'A'], 2: ['A', 'C'], 3: ['T'] })));
    // Scanned, manual questions not yet marked: 阅卷中, no participant yet.
    await expectAggregatesExact();
    let { view } = await expectViewsAgree();
    expect(view.summary.participation.participants).toBe(0);
    for (const no of [4, 5]) for (let i = 0; i < students.length; i += 1) await markNext(no, 2);
    await expectAggregatesExact();
    ({ view } = await expectViewsAgree());
    expect(view.summary.participation.participants).toBe(3);
    // 3 (B right) + 4 + 2 + 2 + 2 for the first; 0 + 4 + 2 + 2 + 2 for the others.
    expect(view.students.filter((s) => s.total !== null).map((s) => s.total)).toEqual([13, 10, 10]);
  });

  it('a mark changed by its marker changes the totals, the grade view and the student view', async () => {
    const before = await homeworkView();
    // Every manual answer is marked: the marker changes one of theirs (from their history).
    const history = data<{ taskId: number; score: number | null }[]>(
      await teacher({ method: 'GET', url: `/api/marking/homework/${hw.id}/questions/5/history` }),
    );
    const first = history[0]!;
    data(await teacher({ method: 'POST', url: `/api/marking/tasks/${first.taskId}/score`, payload: { score: 9.5 } }));
    await expectAggregatesExact();
    const { view, grade } = await expectViewsAgree();
    expect(view.summary.totals.mean).not.toBe(before.summary.totals.mean);
    expect(view.summary.totals.mean! - before.summary.totals.mean!).toBeCloseTo((9.5 - first.score!) / 3, 9);
    const student = view.students.find((s) => s.total !== null && s.scores[4] === 9.5)!;
    const fromGrade = grade.students.find((s) => s.studentId === student.studentId)!;
    expect(fromGrade.scoreRate).toBeCloseTo(student.total! / view.summary.full, 12);
  });

  it('a doubtful reading resolved on review brings the student in with the resolved mark', async () => {
    const student = hw.students[3]!;
    await scan([{ ...sheetOf(hw.id, student.code, { 1: ['B'], 2: ['A', 'C'], 3: ['F'] }), confidence: { 1: 0.3 } }]);
    for (const no of [4, 5]) await markNext(no, 4);
    await expectAggregatesExact();
    let { view } = await expectViewsAgree();
    // An open review item holds the student back (阅卷中): not a participant, not a 0.
    expect(view.summary.participation.participants).toBe(3);
    expect(view.students.find((s) => s.studentId === student.id)!.status).toBe('marking');
    const items = await reviewItemsFor(teacher, hw.id);
    const item = items.find((i) => i.student?.id === student.id && i.questionNo === 1)!;
    data(
      await teacher({
        method: 'POST',
        url: `/api/marking/review/${item.id}/resolve`,
        payload: { action: 'setAnswer', questionNo: 1, labels: ['B'] },
      }),
    );
    await expectAggregatesExact();
    ({ view } = await expectViewsAgree());
    expect(view.summary.participation.participants).toBe(4);
    // 3 + 4 + 0 (F is wrong) + 4 + 4
    expect(view.students.find((s) => s.studentId === student.id)!.total).toBe(15);
  });

  it('a student marked absent stays out of every figure: absent is not zero', async () => {
    const before = await homeworkView();
    const student = hw.students[4]!;
    data(
      await teacher({
        method: 'PUT',
        url: `/api/marking/homework/${hw.id}/students/${student.id}/absence`,
        payload: { absent: true },
      }),
    );
    await expectAggregatesExact();
    const { view, grade } = await expectViewsAgree();
    expect(view.students.find((s) => s.studentId === student.id)).toMatchObject({ status: 'absent', total: null });
    expect(view.summary.participation).toEqual(before.summary.participation);
    expect(view.summary.totals).toEqual(before.summary.totals);
    expect(grade.students.find((s) => s.studentId === student.id)).toMatchObject({ scoreRate: null, taken: 0 });
  });

  it('a student moving class takes their marks to the new class', async () => {
    const [other] = await rowsOf<{ id: number }>(
      sql`select id from classes where pid = ${schoolYearId} and id <> ${hw.classId} and type = 2 order by id limit 1`,
    );
    await app().database.db.execute(sql`update students set class_id = ${Number(other!.id)} where id = ${hw.students[0]!.id}`);
    await expectAggregatesExact();
    await app().database.db.execute(sql`update students set class_id = ${hw.classId} where id = ${hw.students[0]!.id}`);
    await expectAggregatesExact();
    await expectViewsAgree();
  });
  it('阅卷统计 follows marking tasks rescored at other times, removed, and a student deleted', async () => {
    // Spread the scored tasks over hours before and after the end of the due day (a marker rescoring later
    // sets scored_at again): every update moves the hours.
    await app().database.db.execute(sql`update marking_tasks t set scored_at =
        (h.due_date::timestamp at time zone 'Asia/Shanghai') + (t.id % 5) * interval '11 hours' + (t.id % 7) * interval '1 minute' + (t.id % 60) * interval '1 second'
      from homework h where h.id = t.homework_id and t.homework_id = ${hw.id} and t.scored_at is not null`);
    await expectAggregatesExact();
    const report = await expectCorrectScoreExact();
    const row = report.rows.find((r) => r.classId === hw.classId)!;
    expect(row.markedTasks).toBeGreaterThan(3);
    expect(row.onTimeTasks).toBeGreaterThan(0);
    expect(row.onTimeTasks).toBeLessThan(row.markedTasks);
    // A task removed, one unscored (claimed again): the counts and the median follow.
    await app().database.db.execute(
      sql`delete from marking_tasks where id = (select min(id) from marking_tasks where homework_id = ${hw.id} and scored_at is not null)`,
    );
    await app().database.db.execute(
      sql`update marking_tasks set scored_at = null where id = (select max(id) from marking_tasks where homework_id = ${hw.id} and scored_at is not null)`,
    );
    await expectAggregatesExact();
    const after = (await expectCorrectScoreExact()).rows.find((r) => r.classId === hw.classId)!;
    expect(after.markedTasks).toBe(row.markedTasks - 2);
    // A student deleted with their answers and tasks (cascade) leaves no count behind.
    const student = hw.students[1]!;
    await app().database.db.execute(sql`delete from students where id = ${student.id}`);
    await expectAggregatesExact();
  });
});
