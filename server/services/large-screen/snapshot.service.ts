/**
 * The large screen's snapshot: what a display draws on every (re)connect before it applies live events.
 * - Today's pipeline per homework and class: sheets printed (已印, answer_sheet_prints), expected sheets (在册), scanned, exceptions waiting (异常卷),
 *   fully marked (已阅完), absent; pages stored / recognised / waiting; per hand-marked question to do,
 *   in progress, done and missing; per teacher; arbitration waiting; released (已完成); an estimated
 *   finish from the last 15 minutes' pace. Student states come from the marking module's one rule
 *   (student-status.ts).
 * - Results of the most recent scored homework: every figure from the one statistics module
 *   (analysis-stats.ts) over the analysis loaders (homework-marks.ts). No student name appears unless
 *   the screen shows names, which its pairing allowed only where the school year permits.
 * Everything is limited to the scope (screen-scope.ts); it never reads another school.
 */
import { and, count, countDistinct, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  PACE_WINDOW_MINUTES,
  type LargeScreenSnapshot,
  type PipelineHomework,
  type QuestionProgress,
  type ScreenResults,
} from '../../../src/shared/contract/large-screen';
import { analyseHomework, difference, masteryOf, type MasteryItem } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import {
  answerSheetPrints,
  answers,
  classes,
  homework,
  homeworkClasses,
  markingTasks,
  papers,
  questionScores,
  scanPages,
  subjects,
  users,
} from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { analysisStudents, loadHomework, loadMarks, loadRoster, type LoadedHomework } from '../analysis/homework-marks';
import { recognitionProgress } from '../marking/marking-progress';
import { answerHasFinalScore, homeworkStudentStatuses, openReviewItems } from '../marking/student-status';
import { namesAllowedForYears, scopeAllowsHomework, type ScreenScope } from './screen-scope';

/** Homework shown in the pipeline at once. */
const PIPELINE_LIMIT = 6;
const HEATMAP_POINTS = 10;
/** The heat map's homework: the latest and the ones before it of the same subject and school year. */
const HEATMAP_HOMEWORK = 6;
const MOST_MISSED = 5;
const TOP_STUDENTS = 10;

/** Midnight in China (UTC+8), the school day's start. */
export function startOfSchoolDay(at: Date): Date {
  const shifted = new Date(at.getTime() + 8 * 3_600_000);
  shifted.setUTCHours(0, 0, 0, 0);
  return new Date(shifted.getTime() - 8 * 3_600_000);
}

/**
 * The estimated finish: each remaining piece of work at its pace over the window; null when work is left
 * that the window saw no progress on; `at` when nothing is left.
 */
export function estimateFinish(
  at: Date,
  remaining: { students: number; markings: number },
  pace: { scannedStudents: number; markings: number },
  windowMinutes = PACE_WINDOW_MINUTES,
): Date | null {
  const minutes = (left: number, done: number) => (left <= 0 ? 0 : done > 0 ? (left * windowMinutes) / done : Infinity);
  const needed = Math.max(minutes(remaining.students, pace.scannedStudents), minutes(remaining.markings, pace.markings));
  return Number.isFinite(needed) ? new Date(at.getTime() + needed * 60_000) : null;
}

/**
 * What was printed of a homework, from its print records (oldest first): per class the sheets of its
 * latest per-student print (a reprint replaces, never adds to, the count), the generic masters (通用答题卡,
 * copied by hand: their copies are not known), and the last print's time. Classes outside the scope are
 * left out, and so is a generic master printed for one of them.
 */
export function printingOf(
  rows: readonly { classId: number | null; mode: string; sheets: number; printedAt: Date }[],
  inScope: ReadonlySet<number>,
): { perClass: Map<number, number>; genericSheets: number; lastPrintedAt: string | null } {
  const perClass = new Map<number, number>();
  let genericSheets = 0;
  let last: Date | null = null;
  for (const row of rows) {
    if (row.classId !== null && !inScope.has(row.classId)) continue;
    if (row.mode === 'student' && row.classId !== null) perClass.set(row.classId, row.sheets);
    else genericSheets += row.sheets;
    if (!last || row.printedAt > last) last = row.printedAt;
  }
  return { perClass, genericSheets, lastPrintedAt: last?.toISOString() ?? null };
}

export function createSnapshotService({ db, now }: { db: Db; now: Clock }) {
  /** Homework of the scope active today: pages scanned or marks given today, or scanning / marking now. */
  async function todaysHomework(scope: ScreenScope, at: Date) {
    const since = startOfSchoolDay(at);
    const classIds = [...scope.classes.keys()];
    if (classIds.length === 0) return [];
    const rows = await db
      .selectDistinct({
        id: homework.id,
        title: homework.title,
        status: homework.status,
        subjectId: papers.subjectId,
        subjectName: subjects.name,
        // The most recent page or mark: the busiest homework comes first.
        lastActivity:
          sql<number>`coalesce(extract(epoch from greatest((select max(${scanPages.createdAt}) from ${scanPages} where ${scanPages.homeworkId} = ${homework.id}), (select max(${markingTasks.scoredAt}) from ${markingTasks} where ${markingTasks.homeworkId} = ${homework.id}), (select max(${answerSheetPrints.printedAt}) from ${answerSheetPrints} where ${answerSheetPrints.homeworkId} = ${homework.id}))), 0)`.mapWith(
            Number,
          ),
      })
      .from(homework)
      .innerJoin(papers, eq(papers.id, homework.paperId))
      .innerJoin(subjects, eq(subjects.id, papers.subjectId))
      .innerJoin(homeworkClasses, eq(homeworkClasses.homeworkId, homework.id))
      .where(
        and(
          eq(homework.orgId, scope.orgId),
          inArray(homeworkClasses.classId, classIds),
          or(
            inArray(homework.status, ['scanning', 'marking']),
            sql`exists (select 1 from ${scanPages} where ${scanPages.homeworkId} = ${homework.id} and ${scanPages.createdAt} >= ${since})`,
            sql`exists (select 1 from ${markingTasks} where ${markingTasks.homeworkId} = ${homework.id} and ${markingTasks.scoredAt} >= ${since})`,
            // Sheets printed today: the homework is on its way to the scanner.
            sql`exists (select 1 from ${answerSheetPrints} where ${answerSheetPrints.homeworkId} = ${homework.id} and ${answerSheetPrints.printedAt} >= ${since})`,
          ),
        ),
      );
    const ids = rows.map((r) => r.id);
    const classRows = ids.length ? await db.select().from(homeworkClasses).where(inArray(homeworkClasses.homeworkId, ids)) : [];
    return rows
      .map((r) => ({
        ...r,
        classIds: scopeAllowsHomework(
          scope,
          classRows.filter((c) => c.homeworkId === r.id).map((c) => c.classId),
          r.subjectId,
        ),
      }))
      .filter((r) => r.classIds.length > 0)
      .sort((a, b) => b.lastActivity - a.lastActivity || b.id - a.id)
      .slice(0, PIPELINE_LIMIT);
  }

  async function pipelineOf(
    scope: ScreenScope,
    hw: { id: number; title: string; status: string; subjectName: string; classIds: number[] },
    at: Date,
  ): Promise<PipelineHomework> {
    const windowStart = new Date(at.getTime() - PACE_WINDOW_MINUTES * 60_000);
    const [progress, statuses, classNames, openItems, answerRows, taskRows, teacherRows, paceScan, paceMark] = await Promise.all([
      recognitionProgress(db, scope.orgId, hw.id),
      homeworkStudentStatuses(db, scope.orgId, hw.id),
      db.select({ id: classes.id, name: classes.name }).from(classes).where(inArray(classes.id, hw.classIds)),
      openReviewItems(db, scope.orgId, hw.id),
      // Per hand-marked question: answers, final scores by source.
      db
        .select({
          no: answers.questionNo,
          total: count(),
          done: sql<number>`count(${questionScores.answerId}) filter (where ${questionScores.source} <> 'missing')`.mapWith(
            Number,
          ),
          missing: sql<number>`count(${questionScores.answerId}) filter (where ${questionScores.source} = 'missing')`.mapWith(
            Number,
          ),
        })
        .from(answers)
        .leftJoin(questionScores, answerHasFinalScore())
        .where(
          and(
            eq(answers.homeworkId, hw.id),
            sql`exists (select 1 from ${markingTasks} where ${markingTasks.answerId} = ${answers.id})`,
          ),
        )
        .groupBy(answers.questionNo),
      // Answers being marked: some round scored or claimed, no final score yet.
      db
        .select({ no: markingTasks.questionNo, value: countDistinct(markingTasks.answerId) })
        .from(markingTasks)
        .leftJoin(
          questionScores,
          and(eq(questionScores.homeworkId, markingTasks.homeworkId), eq(questionScores.answerId, markingTasks.answerId)),
        )
        .where(
          and(
            eq(markingTasks.homeworkId, hw.id),
            isNull(questionScores.answerId),
            or(isNotNull(markingTasks.scoredAt), gt(markingTasks.claimExpiresAt, at)),
          ),
        )
        .groupBy(markingTasks.questionNo),
      db
        .select({
          name: users.nickname,
          done: sql<number>`count(*) filter (where ${markingTasks.scoredAt} is not null)`.mapWith(Number),
          inProgress: sql<number>`count(*) filter (where ${markingTasks.scoredAt} is null)`.mapWith(Number),
        })
        .from(markingTasks)
        .innerJoin(
          users,
          or(eq(users.id, markingTasks.markerId), and(isNull(markingTasks.markerId), eq(users.id, markingTasks.claimedBy))),
        )
        .where(and(eq(markingTasks.homeworkId, hw.id), or(isNotNull(markingTasks.scoredAt), gt(markingTasks.claimExpiresAt, at))))
        .groupBy(users.nickname),
      db
        .select({ value: countDistinct(answers.studentId) })
        .from(answers)
        .where(and(eq(answers.homeworkId, hw.id), gt(answers.createdAt, windowStart))),
      db
        .select({ value: count() })
        .from(markingTasks)
        .where(and(eq(markingTasks.homeworkId, hw.id), gt(markingTasks.scoredAt, windowStart))),
    ]);
    const [arbitrationRow, openTasksRow, printRows] = await Promise.all([
      db
        .select({ value: count() })
        .from(markingTasks)
        .where(and(eq(markingTasks.homeworkId, hw.id), eq(markingTasks.round, 4), isNull(markingTasks.scoredAt))),
      db
        .select({ value: count() })
        .from(markingTasks)
        .where(and(eq(markingTasks.homeworkId, hw.id), isNull(markingTasks.scoredAt))),
      db
        .select({
          classId: answerSheetPrints.classId,
          mode: answerSheetPrints.mode,
          sheets: answerSheetPrints.sheets,
          printedAt: answerSheetPrints.printedAt,
        })
        .from(answerSheetPrints)
        .where(and(eq(answerSheetPrints.orgId, scope.orgId), eq(answerSheetPrints.homeworkId, hw.id)))
        .orderBy(answerSheetPrints.printedAt, answerSheetPrints.id),
    ]);
    const inScope = new Set(hw.classIds);
    const blocked = openItems.map((row) => row.studentId);
    const printing = printingOf(printRows, inScope);
    const classRows = hw.classIds.map((classId) => {
      const of = statuses.filter((s) => s.classId === classId);
      const ids = new Set(of.map((s) => s.studentId));
      return {
        classId,
        name: classNames.find((c) => c.id === classId)?.name ?? '',
        printed: printing.perClass.get(classId) ?? null,
        enrolled: of.length,
        scanned: of.filter((s) => s.status === 'marking' || s.status === 'complete').length,
        review: blocked.filter((id) => id !== null && ids.has(id)).length,
        complete: of.filter((s) => s.status === 'complete').length,
        absent: of.filter((s) => s.status === 'absent').length,
      };
    });
    const inProgressOf = new Map(taskRows.map((row) => [row.no, row.value]));
    const questions: QuestionProgress[] = answerRows
      .sort((a, b) => a.no - b.no)
      .map((row) => {
        const inProgress = inProgressOf.get(row.no) ?? 0;
        return {
          no: row.no,
          done: row.done,
          missing: row.missing,
          inProgress,
          todo: Math.max(0, row.total - row.done - row.missing - inProgress),
        };
      });
    const remainingStudents = statuses.filter((s) => inScope.has(s.classId) && s.status === 'unscanned').length;
    const pace = { scannedStudents: paceScan[0]?.value ?? 0, markings: paceMark[0]?.value ?? 0 };
    const finish =
      hw.status === 'finished'
        ? at
        : estimateFinish(at, { students: remainingStudents, markings: openTasksRow[0]?.value ?? 0 }, pace);
    return {
      homeworkId: hw.id,
      title: hw.title,
      subjectName: hw.subjectName,
      status: hw.status,
      printing: { genericSheets: printing.genericSheets, lastPrintedAt: printing.lastPrintedAt },
      pages: { stored: progress.stored, recognised: progress.recognised, pending: progress.pending },
      review: progress.review,
      arbitration: arbitrationRow[0]?.value ?? 0,
      classes: classRows,
      questions,
      teachers: teacherRows.sort((a, b) => b.done - a.done),
      pace,
      estimatedFinish: finish?.toISOString() ?? null,
    };
  }

  async function resultsOf(scope: ScreenScope): Promise<ScreenResults | null> {
    const all = await loadHomework(db, scope.orgId, {});
    const visible = all
      .map((hw) => ({ hw, classIds: scopeAllowsHomework(scope, hw.classIds, hw.subjectId) }))
      .filter((x) => x.classIds.length > 0);
    if (visible.length === 0) return null;
    const scored = await db
      .selectDistinct({ id: questionScores.homeworkId })
      .from(questionScores)
      .where(
        and(
          eq(questionScores.orgId, scope.orgId),
          inArray(
            questionScores.homeworkId,
            visible.map((x) => x.hw.id),
          ),
        ),
      );
    const scoredIds = new Set(scored.map((r) => r.id));
    const candidates = visible.filter((x) => scoredIds.has(x.hw.id));
    // The latest finished homework, or the latest with any score while none is finished.
    const latest = candidates.filter((x) => x.hw.status === 'finished').at(-1) ?? candidates.at(-1);
    if (!latest) return null;
    const { hw, classIds } = latest;
    // The heat map reads the subject's recent homework: one paper seldom tags a point on 3 questions.
    const recent = candidates
      .filter((x) => x.hw.subjectId === hw.subjectId && x.hw.schoolYearId === hw.schoolYearId && x.hw.startDate <= hw.startDate)
      .slice(-HEATMAP_HOMEWORK)
      .map((x) => x.hw);
    const previous = candidates
      .filter(
        (x) =>
          x.hw.subjectId === hw.subjectId &&
          x.hw.schoolYearId === hw.schoolYearId &&
          x.hw.id !== hw.id &&
          x.hw.startDate <= hw.startDate,
      )
      .at(-1);
    const both = [...new Set([hw, ...recent, ...(previous ? [previous.hw] : [])])];
    const roster = await loadRoster(db, scope.orgId, [...new Set(both.flatMap((h) => h.classIds))]);
    const marks = await loadMarks(db, scope.orgId, both);
    const gradeOf = (h: LoadedHomework, ids: number[]) =>
      analyseHomework(h.questions, analysisStudents(h, roster, marks.get(h.id), ids));
    const grade = gradeOf(hw, classIds);
    const perClass = classIds.map((classId) => ({ classId, stats: gradeOf(hw, [classId]) }));
    const className = (id: number) => roster.find((s) => s.classId === id)?.className ?? '';
    const names = await db.select({ id: classes.id, name: classes.name }).from(classes).where(inArray(classes.id, classIds));
    const nameOf = (id: number) => names.find((c) => c.id === id)?.name ?? className(id);

    const itemsOf = (ids: readonly number[]): MasteryItem[] =>
      recent.flatMap((h) =>
        analysisStudents(h, roster, marks.get(h.id), ids).flatMap((student) =>
          h.questions.flatMap((q, qi) =>
            student.scores[qi] === null
              ? []
              : (q.knowledgePoints ?? []).map((p) => ({
                  pointId: p.id,
                  pointName: p.name,
                  questionKey: `${h.id}:${q.no}`,
                  score: student.scores[qi]!,
                  full: q.full,
                })),
          ),
        ),
      );
    const points = masteryOf(itemsOf(classIds))
      .filter((p) => p.mastery !== null)
      .sort((a, b) => a.mastery! - b.mastery!)
      .slice(0, HEATMAP_POINTS);
    const classMastery = perClass.map(({ classId }) => masteryOf(itemsOf([classId])));
    let mostImproved: ScreenResults['mostImproved'] = null;
    if (previous) {
      const prevIds = previous.classIds.filter((id) => classIds.includes(id));
      const prevGrade = gradeOf(previous.hw, prevIds);
      for (const { classId, stats } of perClass) {
        if (!prevIds.includes(classId)) continue;
        const before = difference(gradeOf(previous.hw, [classId]).scoreRate, prevGrade.scoreRate);
        const after = difference(stats.scoreRate, grade.scoreRate);
        if (before === null || after === null) continue;
        const delta = after - before;
        if (delta > 0 && (!mostImproved || delta > mostImproved.delta)) {
          mostImproved = { name: nameOf(classId), previousTitle: previous.hw.title, delta };
        }
      }
    }
    const namesAllowed = scope.showNames && ((await namesAllowedForYears(db, scope.orgId)).get(hw.schoolYearId) ?? false);
    const byId = new Map(roster.map((s) => [s.id, s]));
    return {
      homework: { id: hw.id, title: hw.title, subjectName: hw.subjectName, date: hw.startDate, full: grade.full },
      grade: {
        scoreRate: grade.scoreRate,
        participants: grade.participation.participants,
        enrolled: grade.participation.enrolled,
      },
      classes: perClass.map(({ classId, stats }) => ({
        classId,
        name: nameOf(classId),
        participants: stats.participation.participants,
        enrolled: stats.participation.enrolled,
        scoreRate: stats.scoreRate,
        mean: stats.totals.mean,
        gradeBands: stats.gradeBands,
      })),
      mostMissed: grade.questions
        .filter((q) => q.scoreRate !== null)
        .sort((a, b) => a.scoreRate! - b.scoreRate!)
        .slice(0, MOST_MISSED)
        .map((q) => ({ no: q.no, scoreRate: q.scoreRate!, n: q.n })),
      heatmapHomeworkCount: recent.length,
      heatmap: points.map((p) => ({
        name: p.name,
        values: classMastery.map((list) => list.find((k) => k.id === p.id)?.mastery ?? null),
      })),
      mostImproved,
      topStudents: namesAllowed
        ? [...grade.students]
            .sort((a, b) => b.scoreRate - a.scoreRate)
            .slice(0, TOP_STUDENTS)
            .map((s) => ({ name: byId.get(s.studentId)?.name ?? '', className: nameOf(s.classId), scoreRate: s.scoreRate }))
        : null,
    };
  }

  return {
    async snapshot(scope: ScreenScope): Promise<LargeScreenSnapshot> {
      const at = now();
      const wantsPipeline = scope.panels.includes('pipeline') || scope.panels.includes('marking');
      const list = wantsPipeline ? await todaysHomework(scope, at) : [];
      const pipeline = [];
      for (const hw of list) pipeline.push(await pipelineOf(scope, hw, at));
      return {
        generatedAt: at.toISOString(),
        schoolName: scope.schoolName,
        title: scope.title,
        scopeLabel: scope.scopeLabel,
        panels: scope.panels,
        showNames: scope.showNames,
        pipeline,
        results: scope.panels.includes('results') ? await resultsOf(scope) : null,
      };
    },
  };
}
