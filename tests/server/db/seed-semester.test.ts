import { and, count, countDistinct, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { homework, questionScores } from '../../../server/db/schema';
import { answers, markingTasks } from '../../../server/db/schema-marking';
import { DEMO_HOMEWORK_ANSWERED } from '../../../server/db/seed-papers';
import { seedSemesterDemo, seedSemesterForSchool } from '../../../server/db/seed-semester';
import { homeworkStudentStatuses } from '../../../server/services/marking/student-status';
import { useTestApp } from '../helper';

describe('the demo semester', () => {
  const app = useTestApp();

  beforeAll(async () => {
    // Unit tests skip the semester in the demo seed; seed it here, timed.
    const started = Date.now();
    expect(await seedSemesterForSchool(app().database.db, 1)).toBe(true);
    console.info(`demo semester seeded in ${Date.now() - started} ms`);
  }, 120_000);

  it('marks ten homework per subject for the 160 students, question by question, with absences', async () => {
    const db = app().database.db;
    const scored = await db
      .select({ homeworkId: questionScores.homeworkId, students: countDistinct(questionScores.studentId) })
      .from(questionScores)
      .innerJoin(homework, eq(homework.id, questionScores.homeworkId))
      .where(notInArray(homework.title, [...DEMO_HOMEWORK_ANSWERED.keys()]))
      .groupBy(questionScores.homeworkId);
    expect(scored.length).toBe(30);
    // Every homework has absent students (fewer than 160 scored), and most students took part.
    for (const row of scored) {
      expect(row.students).toBeLessThan(160);
      expect(row.students).toBeGreaterThan(140);
    }
    const finished = await db.select({ value: count() }).from(homework).where(eq(homework.status, 'finished'));
    expect(finished[0]!.value).toBeGreaterThanOrEqual(30);
    // Multiple choice answers with more than one label, blanks, and partial credit exist.
    const [multi] = await db
      .select({ value: count() })
      .from(answers)
      .where(sql`jsonb_array_length(${answers.labels}) > 1`);
    expect(multi!.value).toBeGreaterThan(100);
    const [blank] = await db
      .select({ value: count() })
      .from(answers)
      .where(sql`jsonb_array_length(${answers.labels}) = 0`);
    expect(blank!.value).toBeGreaterThan(10);
    // Manual questions were marked by the homework's author.
    const [tasks] = await db
      .select({ value: count() })
      .from(markingTasks)
      .where(and(eq(markingTasks.round, 1)));
    expect(tasks!.value).toBeGreaterThan(1000);
    const [marked] = await db.select({ value: count() }).from(questionScores).where(eq(questionScores.source, 'marked'));
    expect(marked!.value).toBe(tasks!.value);
  });

  it('answers the demo homework under way for their share of students, and their statuses follow from it', async () => {
    const db = app().database.db;
    const rows = await db
      .select({ id: homework.id, title: homework.title, status: homework.status })
      .from(homework)
      .where(inArray(homework.title, [...DEMO_HOMEWORK_ANSWERED.keys()]));
    expect(rows).toHaveLength(DEMO_HOMEWORK_ANSWERED.size);
    for (const row of rows) {
      const statuses = await homeworkStudentStatuses(db, 1, row.id);
      const count = (status: string) => statuses.filter((s) => s.status === status).length;
      const share = DEMO_HOMEWORK_ANSWERED.get(row.title)!;
      // Scanned students are fully marked; the rest are 未扫描 (or, for the finished ones, 缺考).
      expect(count('marking')).toBe(0);
      expect(count('complete') / statuses.length).toBeGreaterThan(share - 0.15);
      if (share === 1) {
        expect(count('unscanned')).toBe(0);
        expect(row.status).toBe('finished');
      } else {
        expect(count('unscanned')).toBeGreaterThan(0);
        expect(row.status).toBe('marking');
      }
    }
  });

  it('does nothing the second time', async () => {
    const db = app().database.db;
    expect(await seedSemesterDemo(db, { orgId: 1, schoolYearId: 1, authors: {} })).toBe(false);
  });
});
