/**
 * Analysis endpoints over the seeded demo semester: scope from the session, 403 for the data centre
 * unless a grade director, 404 for another school, 400 for bad filters, and one homework's figures
 * agreeing across the grade, class, student and homework views and an independent recomputation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analysisOptionsSchema,
  analysisOverviewSchema,
  averageScoreSchema,
  bigDataSchema,
  correctScoreSchema,
  homeworkAnalysisSchema,
  personAnalysisSchema,
  subjectStatsSchema,
  type AnalysisOptions,
} from '../../../src/shared/contract/analysis';
import { seedSemesterForSchool } from '../../../server/db/seed-semester';
import { failure } from '../accounts-helper';
import { createOtherSchool } from '../papers/papers-helper';
import { addTeacher, type Caller, callerFor, createMarkingApp, data, type MarkingApp } from '../marking/marking-helper';

describe('analysis endpoints', () => {
  let handle: MarkingApp;
  let teacher: Caller;
  let director: Caller;
  let newcomer: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  let options: AnalysisOptions;
  const app = () => handle.app;
  const ids = { year: 0, math: 0, chinese: 0, hw: 0 };

  beforeAll(async () => {
    handle = await createMarkingApp();
    await seedSemesterForSchool(app().database.db, (await callerFor(app(), 'creator')).orgId);
    teacher = await callerFor(app(), 'teacher');
    director = await callerFor(app(), 'director');
    other = await createOtherSchool(app());
    newcomer = await addTeacher(app(), 'newcomer', '钱老师', teacher.orgId);
    options = analysisOptionsSchema.parse(data(await teacher({ method: 'GET', url: '/api/analysis/options' })));
    ids.year = options.schoolYears[0]!.id;
    ids.math = options.subjects.find((s) => s.name === '数学')!.id;
    ids.chinese = options.subjects.find((s) => s.name === '语文')!.id;
    // The first semester math homework with scores.
    const [row] = (
      (await app().database.db.execute(
        sql`select h.id from homework h join papers p on p.id = h.paper_id join subjects s on s.id = p.subject_id
            where s.name = '数学' and exists (select 1 from question_scores q where q.homework_id = h.id) order by h.id limit 1`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    ids.hw = Number(row!.id);
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
  });

  it('scopes the options to the session: the math teacher sees the four classes, only their homework subjects', () => {
    expect(options.gradeDirector).toBe(false);
    expect(options.classes.map((c) => c.name)).toEqual(['初一(1)班', '初一(2)班', '初一(3)班', '初一(4)班']);
    // Ranks are off for 初中 school years.
    expect(options.schoolYears[0]!.ranksAllowed).toBe(false);
    const subjectIds = new Set(options.homework.map((h) => h.subjectId));
    expect([...subjectIds]).toEqual([ids.math]);
  });

  it('one homework: the same figures on the grade, class, student and homework views and in the database', async () => {
    const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    // Independent recomputation: students with any score row are the participants; absent are never 0.
    const { rows } = (await app().database.db.execute(sql`
      select count(*) as n, avg(t.total) as mean,
        (select count(*) from students s join homework_classes hc on hc.class_id = s.class_id where hc.homework_id = ${ids.hw}) as enrolled
      from (select student_id, sum(score) as total from question_scores where homework_id = ${ids.hw} group by student_id) t`)) as unknown as {
      rows: { n: string; mean: number; enrolled: string }[];
    };
    expect(hw.summary.participation.participants).toBe(Number(rows[0]!.n));
    expect(hw.summary.participation.enrolled).toBe(Number(rows[0]!.enrolled));
    expect(hw.summary.participation.absent).toBeGreaterThan(0);
    expect(hw.summary.totals.mean!).toBeCloseTo(Number(rows[0]!.mean), 9);
    expect(hw.students.filter((s) => s.absent).every((s) => s.total === null && s.scores.every((v) => v === null))).toBe(true);
    expect(hw.students.every((s) => s.rank === null)).toBe(true);

    const grade = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
    );
    const inGrade = grade.homework.find((h) => h.id === ids.hw)!;
    expect(inGrade.summary).toEqual(hw.summary);

    const klass = hw.classSummaries[0]!;
    const classView = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/class?classId=${klass.classId}&subjectId=${ids.math}` })),
    );
    const inClass = classView.homework.find((h) => h.id === ids.hw)!;
    expect(inClass.summary).toEqual(klass.summary);
    expect(inClass.gradeScoreRate).toBe(hw.summary.scoreRate);
    const classOnly = homeworkAnalysisSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}?classId=${klass.classId}` })),
    );
    expect(classOnly.summary).toEqual(klass.summary);

    const student = hw.students.find((s) => !s.absent)!;
    const person = personAnalysisSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/person?studentId=${student.studentId}&subjectId=${ids.math}` })),
    );
    const point = person.trend.find((t) => t.homeworkId === ids.hw)!;
    expect(point.total).toBe(student.total);
    expect(point.band).toBe(student.band);
    expect([point.right, point.wrong, point.blank]).toEqual([student.right, student.wrong, student.blank]);
    expect(point.classScoreRate).toBe(hw.classSummaries.find((c) => c.classId === student.classId)!.summary.scoreRate);
  });

  it('the grade view has a heat map, class comparison and students without ranks', async () => {
    const grade = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
    );
    expect(grade.homework.length).toBeGreaterThanOrEqual(10);
    expect(grade.classes).toHaveLength(4);
    expect(grade.heatmap.points.length).toBeGreaterThan(3);
    expect(grade.heatmap.cells.flat().some((v) => v !== null)).toBe(true);
    expect(grade.students).toHaveLength(160);
    expect(grade.students.every((s) => s.rank === null)).toBe(true);
  });

  it('hides what the session may not see: another subject, another school', async () => {
    // The math teacher owns no Chinese homework: the grade view of 语文 is empty, a Chinese homework 404.
    const chinese = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.chinese}` })),
    );
    expect(chinese.homework).toEqual([]);
    const directorOptions = analysisOptionsSchema.parse(data(await director({ method: 'GET', url: '/api/analysis/options' })));
    const chineseHw = directorOptions.homework.find((h) => h.subjectId === ids.chinese)!;
    expect(failure(await teacher({ method: 'GET', url: `/api/analysis/homework/${chineseHw.id}` })).status).toBe(404);
    // A teacher without homework or a default school year sees nothing.
    expect(failure(await newcomer({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })).status).toBe(404);
    // Another school: 404 for this school's homework, class, student, school year.
    const call = other.call;
    expect(failure(await call({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })).status).toBe(404);
    const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    expect(
      failure(await call({ method: 'GET', url: `/api/analysis/class?classId=${hw.classes[0]!.id}&subjectId=${other.subjectId}` }))
        .status,
    ).toBe(404);
    expect(
      failure(
        await call({
          method: 'GET',
          url: `/api/analysis/person?studentId=${hw.students[0]!.studentId}&subjectId=${other.subjectId}`,
        }),
      ).status,
    ).toBe(404);
    expect(
      failure(await call({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${other.subjectId}` }))
        .status,
    ).toBe(404);
  });

  it('answers 400 for bad filters', async () => {
    for (const url of [
      '/api/analysis/grade',
      `/api/analysis/grade?schoolYearId=abc&subjectId=${ids.math}`,
      `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}&from=2026-13-40`,
      `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}&from=2026-05-01&to=2026-04-01`,
      `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}&extra=1`,
      '/api/analysis/class?classId=0&subjectId=1',
      '/api/analysis/person?studentId=99999999999&subjectId=1',
      '/api/analysis/homework/0',
      `/api/analysis/homework/${ids.hw}?classId=-1`,
      '/api/analysis/data-center/subject',
    ]) {
      const response = await teacher({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(failure(response).msg, url).toMatch(/请求参数错误|日期|班级/);
    }
  });

  it('the data centre is for grade directors only', async () => {
    for (const report of ['subject', 'correct-score', 'average-score']) {
      const url = `/api/analysis/data-center/${report}?schoolYearId=${ids.year}`;
      const denied = failure(await teacher({ method: 'GET', url }));
      expect(denied.status).toBe(403);
      expect(denied.msg).toBe('很抱歉，您暂无该操作权限');
      expect(failure(await other.call({ method: 'GET', url })).status).toBe(403);
    }
    const subject = subjectStatsSchema.parse(
      data(await director({ method: 'GET', url: `/api/analysis/data-center/subject?schoolYearId=${ids.year}` })),
    );
    expect(subject.subjects.map((s) => s.name).sort()).toEqual(['数学', '英语', '语文'].sort());
    expect(subject.subjects.every((s) => s.scoreRate! > 0.2 && s.scoreRate! < 0.95)).toBe(true);
    const correct = correctScoreSchema.parse(
      data(await director({ method: 'GET', url: `/api/analysis/data-center/correct-score?schoolYearId=${ids.year}` })),
    );
    const mathRow = correct.rows.find((r) => r.teacherName === '王老师')!;
    expect(mathRow.assigned).toBeGreaterThanOrEqual(10);
    expect(mathRow.scannedSheets).toBeLessThan(mathRow.expectedSheets);
    expect(mathRow.onTimeTasks).toBeLessThanOrEqual(mathRow.markedTasks);
    const average = averageScoreSchema.parse(
      data(
        await director({
          method: 'GET',
          url: `/api/analysis/data-center/average-score?schoolYearId=${ids.year}&subjectId=${ids.math}&homeworkId=${ids.hw}`,
        }),
      ),
    );
    const hw = homeworkAnalysisSchema.parse(data(await director({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    expect(average.grade.mean).toBe(hw.summary.totals.mean);
    expect(average.classes.map((c) => c.mean)).toEqual(hw.classSummaries.map((c) => c.summary.totals.mean));
    expect(
      failure(
        await director({ method: 'GET', url: `/api/analysis/data-center/average-score?schoolYearId=${other.schoolYearId}` }),
      ).status,
    ).toBe(404);
  });

  it('big data: the school at a glance, anonymous', async () => {
    const big = bigDataSchema.parse(data(await director({ method: 'GET', url: '/api/analysis/big-data' })));
    expect(big.schoolName).toBe('示范中学');
    expect(big.students).toBe(160);
    expect(big.subjects).toHaveLength(3);
    expect(big.weekly.length).toBeGreaterThanOrEqual(10);
    expect(JSON.stringify(big)).not.toMatch(/studentId|"name":"[王李张]/);
  });
});
