/**
 * Analysis endpoints over the seeded demo semester: scope from the session, 403 for the data centre
 * unless a grade director, 404 for another school, 400 for bad filters, and one homework's figures
 * agreeing across the grade, class, student and homework views and an independent recomputation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANALYSIS_MESSAGES,
  analysisOptionsSchema,
  analysisOverviewSchema,
  averageScoreSchema,
  bigDataSchema,
  classRosterSchema,
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

  it('scopes the options to the session (the permission module): maths in the four classes, every subject of their own class', () => {
    expect(options.gradeDirector).toBe(false);
    expect(options.classes.map((c) => c.name)).toEqual(['初一(1)班', '初一(2)班', '初一(3)班', '初一(4)班']);
    // Ranks are off for 初中 school years.
    expect(options.schoolYears[0]!.ranksAllowed).toBe(false);
    const first = options.classes[0]!.id;
    // Maths homework in all their classes; other subjects only in 初一(1)班, where the teacher is 班主任.
    for (const hw of options.homework) {
      if (hw.subjectId === ids.math) expect(hw.classIds.length).toBeGreaterThan(0);
      else expect(hw.classIds).toEqual([first]);
    }
    expect(new Set(options.homework.map((h) => h.subjectId)).size).toBe(3);
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
    // The math teacher sees 语文 only in the class they are 班主任 of: one class in the grade view and
    // in a Chinese homework; a teacher without duties gets 404 for it.
    const chinese = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.chinese}` })),
    );
    expect(chinese.classes.map((c) => c.name)).toEqual(['初一(1)班']);
    expect(new Set(chinese.students.map((s) => s.className))).toEqual(new Set(['初一(1)班']));
    const directorOptions = analysisOptionsSchema.parse(data(await director({ method: 'GET', url: '/api/analysis/options' })));
    const chineseHw = directorOptions.homework.find((h) => h.subjectId === ids.chinese)!;
    const seen = homeworkAnalysisSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/homework/${chineseHw.id}` })),
    );
    expect(seen.classes.map((c) => c.name)).toEqual(['初一(1)班']);
    expect(failure(await newcomer({ method: 'GET', url: `/api/analysis/homework/${chineseHw.id}` })).status).toBe(404);
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

  it("学生学情's picker: a class's students (id, name, 学号) under the class view's scope, none of its figures", async () => {
    const first = options.classes[0]!.id;
    const url = (classId: number, subjectId: number) => `/api/analysis/class/students?classId=${classId}&subjectId=${subjectId}`;
    const answer = await teacher({ method: 'GET', url: url(first, ids.math) });
    const roster = classRosterSchema.parse(data(answer));
    // The students of the class, in 学号 order, as the class view lists them; nothing more in the answer.
    const rows = (
      (await app().database.db.execute(
        sql`select id, name, code from students where class_id = ${first} order by code`,
      )) as unknown as { rows: { id: number; name: string; code: string }[] }
    ).rows.map((r) => ({ id: Number(r.id), name: r.name, code: r.code }));
    expect(rows.length).toBeGreaterThan(10);
    expect(roster).toEqual({ classId: first, students: rows });
    expect(Object.keys(answer.json().data.students[0]).sort()).toEqual(['code', 'id', 'name']);
    const view = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/class?classId=${first}&subjectId=${ids.math}` })),
    );
    expect(roster.students.map((s) => s.id)).toEqual(view.students.map((s) => s.studentId));
    // 语文 in 初一(1)班, where the teacher is 班主任: seen; in 初一(2)班, where they teach only maths: not found.
    expect(classRosterSchema.parse(data(await teacher({ method: 'GET', url: url(first, ids.chinese) }))).students).toEqual(rows);
    expect(failure(await teacher({ method: 'GET', url: url(options.classes[1]!.id, ids.chinese) })).status).toBe(404);
    expect(failure(await newcomer({ method: 'GET', url: url(first, ids.math) })).status).toBe(404);
    expect(failure(await other.call({ method: 'GET', url: url(first, other.subjectId) })).status).toBe(404);
    expect((await app().inject({ method: 'GET', url: url(first, ids.math) })).statusCode).toBe(401);
    for (const bad of ['/api/analysis/class/students', `/api/analysis/class/students?classId=abc&subjectId=${ids.math}`]) {
      expect((await teacher({ method: 'GET', url: bad })).statusCode, bad).toBe(400);
    }
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
    // 作业数 counts the homework behind the figures, as 年级学情 does (a draft or unmarked one is not).
    const grade = analysisOverviewSchema.parse(
      data(await director({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
    );
    expect(subject.subjects.find((s) => s.subjectId === ids.math)!.homeworkCount).toBe(grade.totals.homeworkCount);
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

  it('participation comes from the student status: 缺考 recorded, unscanned homework out of the trend', async () => {
    const db = app().database.db;
    const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    const { rows } = (await db.execute(
      sql`select count(*)::int as n from homework_absences where homework_id = ${ids.hw}`,
    )) as unknown as { rows: { n: number }[] };
    expect(hw.students.filter((s) => s.status === 'absent').length).toBe(rows[0]!.n);
    expect(hw.students.filter((s) => s.status === 'complete').length).toBe(hw.summary.participation.participants);
    expect(hw.summary.participation.absent).toBe(hw.students.filter((s) => s.status !== 'complete').length);
    // Homework nobody was scanned for (the demo's published homework) are not 0-participant points.
    const grade = analysisOverviewSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
    );
    expect(grade.homework.every((h) => h.summary.participation.participants > 0)).toBe(true);
    const unscored = options.homework.filter((h) => !h.scored && h.subjectId === ids.math);
    expect(unscored.length).toBeGreaterThan(0);
    expect(grade.homework.some((h) => unscored.some((u) => u.id === h.id))).toBe(false);
  });

  it("the school's 及格/良好/优秀 lines drive every rate; ranks follow the school-year setting", async () => {
    const db = app().database.db;
    const creator = await callerFor(app(), 'creator');
    await db.execute(
      sql`update orgs set pass_percent = 50, good_percent = 70, excellent_percent = 90 where id = ${creator.orgId}`,
    );
    try {
      const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
      const full = hw.summary.full;
      const { rows } = (await db.execute(sql`
        select count(*)::int as n,
          count(*) filter (where t.total >= ${full} * 0.5 - 1e-9)::int as pass,
          count(*) filter (where t.total >= ${full} * 0.9 - 1e-9)::int as excellent
        from (select student_id, sum(score) as total from question_scores where homework_id = ${ids.hw} group by student_id) t`)) as unknown as {
        rows: { n: number; pass: number; excellent: number }[];
      };
      const { n, pass, excellent } = rows[0]!;
      expect(hw.summary.levels!.passRate).toBeCloseTo(pass / n, 12);
      expect(hw.summary.levels!.excellentRate).toBeCloseTo(excellent / n, 12);
      const grade = analysisOverviewSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
      );
      expect(grade.homework.find((h) => h.id === ids.hw)!.summary.levels).toEqual(hw.summary.levels);
      expect(hw.students.filter((s) => s.band === '优秀').length).toBe(excellent);
    } finally {
      await db.execute(
        sql`update orgs set pass_percent = 60, good_percent = 75, excellent_percent = 85 where id = ${creator.orgId}`,
      );
    }
    // Ranks: off by default for this 初中 school year; the school's manager turns them on, a teacher may not.
    expect(
      failure(
        await teacher({ method: 'PUT', url: '/api/analysis/rank-settings', payload: { schoolYearId: ids.year, enabled: true } }),
      ).status,
    ).toBe(403);
    expect(
      failure(await creator({ method: 'PUT', url: '/api/analysis/rank-settings', payload: { schoolYearId: 'x', enabled: true } }))
        .status,
    ).toBe(400);
    expect(
      failure(
        await creator({
          method: 'PUT',
          url: '/api/analysis/rank-settings',
          payload: { schoolYearId: other.schoolYearId, enabled: true },
        }),
      ).status,
    ).toBe(404);
    // 作业讲评 projected: anonymous (no name, code or rank) unless names are asked for; asking is refused
    // for this 初中 school year while named lists are off.
    const projectedUrl = `/api/analysis/homework/${ids.hw}?projection=`;
    const anonymous = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `${projectedUrl}anonymous` })));
    expect(anonymous.students.length).toBeGreaterThan(0);
    expect(anonymous.students.every((s) => s.name === '' && s.code === '' && s.rank === null && s.classRank === null)).toBe(true);
    const refused = failure(await teacher({ method: 'GET', url: `${projectedUrl}named` }));
    expect(refused.status).toBe(400);
    expect(refused.msg).toBe(ANALYSIS_MESSAGES.namesNotAllowed);
    expect(failure(await teacher({ method: 'GET', url: `${projectedUrl}all` })).status).toBe(400);
    data(
      await creator({ method: 'PUT', url: '/api/analysis/rank-settings', payload: { schoolYearId: ids.year, enabled: true } }),
    );
    try {
      const named = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `${projectedUrl}named` })));
      expect(named.students.every((s) => s.name !== '')).toBe(true);
      const stillAnonymous = homeworkAnalysisSchema.parse(
        data(await teacher({ method: 'GET', url: `${projectedUrl}anonymous` })),
      );
      expect(stillAnonymous.students.every((s) => s.name === '' && s.rank === null)).toBe(true);
      const ranked = homeworkAnalysisSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })),
      );
      expect(ranked.ranksAllowed).toBe(true);
      expect(ranked.students.filter((s) => !s.absent).every((s) => s.rank !== null)).toBe(true);
      // 学生学情 gives the same class and grade ranks as the homework's report.
      for (const s of ranked.students.filter((x) => !x.absent).slice(0, 3)) {
        const person = personAnalysisSchema.parse(
          data(await teacher({ method: 'GET', url: `/api/analysis/person?studentId=${s.studentId}&subjectId=${ids.math}` })),
        );
        const point = person.trend.find((t) => t.homeworkId === ids.hw)!;
        expect(point.classRank).toBe(s.classRank);
        expect(point.gradeRank).toBe(s.rank);
      }
    } finally {
      data(
        await creator({ method: 'PUT', url: '/api/analysis/rank-settings', payload: { schoolYearId: ids.year, enabled: null } }),
      );
    }
    const back = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    expect(back.students.every((s) => s.rank === null)).toBe(true);
  });

  it("各学年学科分数线: a school year + subject override drives that subject's rates, the Word report and 低分率; another subject keeps the school's lines", async () => {
    const db = app().database.db;
    const creator = await callerFor(app(), 'creator');
    const linesUrl = (orgId: number, year: number, subject: number) => `/api/org/schools/${orgId}/rate-lines/${year}/${subject}`;
    const override = { excellentPercent: 92.5, goodPercent: 80, passPercent: 70, lowPercent: 50 };
    // A 语文 homework with final marks, seen whole by the creator.
    const chineseHw = Number(
      (
        (await db.execute(
          sql`select h.id from homework h join papers p on p.id = h.paper_id join subjects s on s.id = p.subject_id
              where s.name = '语文' and exists (select 1 from question_scores q where q.homework_id = h.id) order by h.id limit 1`,
        )) as unknown as { rows: { id: number }[] }
      ).rows[0]!.id,
    );
    const counts = async (homeworkId: number, full: number, pass: number, excellent: number, low: number) => {
      const { rows } = (await db.execute(sql`
        select count(*)::int as n,
          count(*) filter (where t.total >= ${full * pass} - 1e-9)::int as pass,
          count(*) filter (where t.total >= ${full * excellent} - 1e-9)::int as excellent,
          count(*) filter (where t.total < ${full * low} - 1e-9)::int as low
        from (select student_id, sum(score) as total from question_scores where homework_id = ${homeworkId} group by student_id) t`)) as unknown as {
        rows: { n: number; pass: number; excellent: number; low: number }[];
      };
      return rows[0]!;
    };
    // Validation: the order 0 < 低分 < 及格 <= 良好 <= 优秀 <= 100, one decimal at most, in Chinese.
    const url = linesUrl(creator.orgId, ids.year, ids.math);
    const bad = failure(await creator({ method: 'PUT', url, payload: { ...override, lowPercent: 70 } }));
    expect(bad.status).toBe(400);
    expect(bad.msg).toContain('分数线须满足 0 < 低分 < 及格 ≤ 良好 ≤ 优秀 ≤ 100');
    const decimals = failure(await creator({ method: 'PUT', url, payload: { ...override, passPercent: 62.25 } }));
    expect(decimals.status).toBe(400);
    expect(decimals.msg).toContain('分数线最多保留一位小数');
    expect(failure(await creator({ method: 'PUT', url, payload: { ...override, excellentPercent: 101 } })).status).toBe(400);
    // Permission: a teacher reads but may not edit; another school's rows are 404.
    expect(failure(await teacher({ method: 'PUT', url, payload: override })).status).toBe(403);
    expect(
      failure(await creator({ method: 'PUT', url: linesUrl(creator.orgId, other.schoolYearId, ids.math), payload: override }))
        .status,
    ).toBe(404);
    expect(failure(await creator({ method: 'GET', url: `/api/org/schools/${other.orgId}/rate-lines` })).status).toBe(404);
    const saved = data(await creator({ method: 'PUT', url, payload: override })) as { items: unknown[] };
    expect(saved.items).toEqual([
      expect.objectContaining({ schoolYearId: ids.year, subjectId: ids.math, subjectName: '数学', ...override }),
    ]);
    const read = data(await teacher({ method: 'GET', url: `/api/org/schools/${creator.orgId}/rate-lines` })) as {
      defaults: unknown;
      editableSchoolYearIds: number[];
    };
    expect(read.defaults).toEqual({ excellentPercent: 85, goodPercent: 75, passPercent: 60, lowPercent: 40 });
    expect(read.editableSchoolYearIds).toEqual([]);
    // The grade director edits their own school year's lines (and only those).
    const directed = data(await director({ method: 'GET', url: `/api/org/schools/${creator.orgId}/rate-lines` })) as {
      editableSchoolYearIds: number[];
    };
    expect(directed.editableSchoolYearIds).toEqual([ids.year]);
    const chineseUrl = linesUrl(creator.orgId, ids.year, ids.chinese);
    expect(
      (data(await director({ method: 'PUT', url: chineseUrl, payload: override })) as { items: unknown[] }).items,
    ).toHaveLength(2);
    expect((data(await director({ method: 'DELETE', url: chineseUrl })) as { items: unknown[] }).items).toHaveLength(1);
    try {
      const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
      expect(hw.lines).toEqual({ excellent: 0.925, good: 0.8, pass: 0.7, low: 0.5 });
      const mine = await counts(ids.hw, hw.summary.full, 0.7, 0.925, 0.5);
      expect(hw.summary.levels!.passRate).toBeCloseTo(mine.pass / mine.n, 12);
      expect(hw.summary.levels!.excellentRate).toBeCloseTo(mine.excellent / mine.n, 12);
      expect(hw.summary.levels!.lowRate).toBeCloseTo(mine.low / mine.n, 12);
      // The defaults would give other figures, so the test can fail.
      const defaults = await counts(ids.hw, hw.summary.full, 0.6, 0.85, 0.4);
      expect([defaults.pass, defaults.low]).not.toEqual([mine.pass, mine.low]);
      const grade = analysisOverviewSchema.parse(
        data(await teacher({ method: 'GET', url: `/api/analysis/grade?schoolYearId=${ids.year}&subjectId=${ids.math}` })),
      );
      expect(grade.lines).toEqual(hw.lines);
      expect(grade.homework.find((h) => h.id === ids.hw)!.summary.levels).toEqual(hw.summary.levels);
      // The Word report states and uses the same lines.
      const docx = await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}/docx` });
      const text = (await (await JSZip.loadAsync(docx.rawPayload)).file('word/document.xml')!.async('string'))
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<');
      expect(text).toContain('优秀 ≥ 92.5%，良好 ≥ 80%，及格 ≥ 70%，低分 < 50%');
      expect(text).toContain(`及格率 ${(hw.summary.levels!.passRate * 100).toFixed(1)}%`);
      // Another subject keeps the school's lines, and the school's 低分 line is the school's own.
      await db.execute(sql`update orgs set low_percent = 30 where id = ${creator.orgId}`);
      const chinese = homeworkAnalysisSchema.parse(
        data(await creator({ method: 'GET', url: `/api/analysis/homework/${chineseHw}` })),
      );
      expect(chinese.lines).toEqual({ excellent: 0.85, good: 0.75, pass: 0.6, low: 0.3 });
      const theirs = await counts(chineseHw, chinese.summary.full, 0.6, 0.85, 0.3);
      expect(chinese.summary.levels!.passRate).toBeCloseTo(theirs.pass / theirs.n, 12);
      expect(chinese.summary.levels!.lowRate).toBeCloseTo(theirs.low / theirs.n, 12);
    } finally {
      await db.execute(sql`update orgs set low_percent = 40 where id = ${creator.orgId}`);
      const removed = data(await creator({ method: 'DELETE', url })) as { items: unknown[] };
      expect(removed.items).toEqual([]);
    }
    const back = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    expect(back.lines).toEqual({ excellent: 0.85, good: 0.75, pass: 0.6, low: 0.4 });
  });

  it('the homework report downloads as Word with the same figures', async () => {
    const hw = homeworkAnalysisSchema.parse(data(await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}` })));
    const response = await teacher({ method: 'GET', url: `/api/analysis/homework/${ids.hw}/docx` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('wordprocessingml');
    const zip = await JSZip.loadAsync(response.rawPayload);
    const xml = await zip.file('word/document.xml')!.async('string');
    const text = xml.replace(/<[^>]+>/g, '');
    expect(text).toContain(`${hw.homework.title} 作业报告`);
    expect(text).toContain(String(Math.round(hw.summary.totals.mean! * 100) / 100));
    expect(text).toContain(`${(hw.summary.scoreRate! * 100).toFixed(1)}%`);
    expect(Object.keys(zip.files).filter((f) => f.startsWith('word/media/')).length).toBe(2);
    expect(failure(await newcomer({ method: 'GET', url: `/api/analysis/homework/${ids.hw}/docx` })).status).toBe(404);
    fs.writeFileSync(path.join(os.tmpdir(), 'analysis-report-test.docx'), response.rawPayload);
  });
});
