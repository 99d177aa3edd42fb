/**
 * What /rehearse reads and changes: the wrong-question book of a class (the most-missed questions with
 * their score rate and error causes) and of a student (each question with the answer given, the key and
 * the analysis), the Excel of the class's most-missed list, the school's error causes and line, the
 * error cause of a book entry, and 加入错题重练 (the class's next-set queue). A class is visible when
 * the permission module's visibleScope says so (a teacher's own classes and subjects); another
 * school's class or student is a 404. Table and rule notes: wrong-book.service.ts.
 */
import ExcelJS from 'exceljs';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import { MARKING_MESSAGES } from '../../../src/shared/contract/marking';
import { QUESTION_TYPE_LABELS, type QuestionType } from '../../../src/shared/contract/papers';
import {
  type BookEntry,
  type ClassBook,
  MASTERY_FILTER_LABELS,
  type ClassBookQuery,
  NO_CAUSE_LABEL,
  type RehearseOptions,
  type RehearseSettingsBody,
  type StudentBook,
  type StudentBookQuery,
} from '../../../src/shared/contract/rehearse';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import {
  answers,
  chapters,
  classes,
  homework,
  homeworkClasses,
  knowledgePoints,
  paperQuestions,
  papers,
  questionChapters,
  questionKnowledgePoints,
  questions,
  questionScores,
  rehearseQueue,
  rehearseSets,
  rehearseSettings,
  students,
  subjects,
  wrongQuestions,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { type Actor, isManager, loadActor, visibleScope } from '../org/permissions';
import { plainText } from '../papers/paper-docx';
import type { FileStorage } from '../storage/file-storage';
import { renderWrongBookPdf } from './wrong-book-pdf';
import { loadRehearseSettings, recomputeWrongBook } from './wrong-book.service';

type BookFilter = Omit<ClassBookQuery, 'classId'>;
type ClassAccess = { actor: Actor; klass: { id: number; name: string; schoolYearId: number }; subjects: number[] | 'all' };

const MASTERY_ORDER = { pending: 0, redo1: 1, redo2: 2, mastered: 3 } as const;

export type RehearseService = ReturnType<typeof createRehearseService>;

export function createRehearseService({ db, storage }: { db: Db; storage?: FileStorage }) {
  /** A class of the caller's school they may see (404 elsewhere, 403 when not theirs). */
  async function classAccess(userId: number, classId: number, subjectId?: number): Promise<ClassAccess> {
    const actor = await loadActor(db, userId);
    const [klass] = await db
      .select({ id: classes.id, name: classes.name, schoolYearId: classes.pid })
      .from(classes)
      .where(and(eq(classes.id, classId), eq(classes.orgId, actor.orgId), eq(classes.type, CLASS_TYPE.klass)));
    if (!klass || klass.schoolYearId === null) throw ApiError.notFound();
    const scope = await visibleScope(db, actor, klass.schoolYearId);
    const entry = scope.classes.find((c) => c.classId === classId);
    if (!entry) throw ApiError.forbidden();
    if (subjectId !== undefined) {
      const [subject] = await db
        .select({ id: subjects.id })
        .from(subjects)
        .where(and(eq(subjects.id, subjectId), eq(subjects.orgId, actor.orgId)));
      if (!subject) throw ApiError.notFound();
      if (entry.subjects !== 'all' && !entry.subjects.includes(subjectId)) throw ApiError.forbidden();
    }
    return { actor, klass: { ...klass, schoolYearId: klass.schoolYearId }, subjects: entry.subjects };
  }

  function entryConditions(access: ClassAccess, filter: BookFilter): SQL[] {
    const conditions: SQL[] = [eq(wrongQuestions.orgId, access.actor.orgId)];
    if (filter.subjectId !== undefined) conditions.push(eq(wrongQuestions.subjectId, filter.subjectId));
    else if (access.subjects !== 'all')
      conditions.push(inArray(wrongQuestions.subjectId, access.subjects.length ? access.subjects : [-1]));
    if (filter.mastery === 'open') conditions.push(sql`${wrongQuestions.mastery} <> 'mastered'`);
    if (filter.mastery === 'mastered') conditions.push(eq(wrongQuestions.mastery, 'mastered'));
    if (filter.minTimesWrong !== undefined) conditions.push(gte(wrongQuestions.timesWrong, filter.minTimesWrong));
    if (filter.from) conditions.push(gte(wrongQuestions.lastWrongOn, filter.from));
    if (filter.to) conditions.push(lte(wrongQuestions.firstWrongOn, filter.to));
    return conditions;
  }

  /** Knowledge points and chapters of questions (names), for display and for the filters. */
  async function tagsOf(questionIds: number[]) {
    const ids = questionIds.length ? questionIds : [-1];
    const [kps, chs] = await Promise.all([
      db
        .select({ questionId: questionKnowledgePoints.questionId, id: knowledgePoints.id, name: knowledgePoints.name })
        .from(questionKnowledgePoints)
        .innerJoin(knowledgePoints, eq(knowledgePoints.id, questionKnowledgePoints.knowledgePointId))
        .where(inArray(questionKnowledgePoints.questionId, ids))
        .orderBy(asc(knowledgePoints.sort), asc(knowledgePoints.id)),
      db
        .select({ questionId: questionChapters.questionId, id: chapters.id, name: chapters.name })
        .from(questionChapters)
        .innerJoin(chapters, eq(chapters.id, questionChapters.chapterId))
        .where(inArray(questionChapters.questionId, ids))
        .orderBy(asc(chapters.sort), asc(chapters.id)),
    ]);
    const group = (rows: { questionId: number; id: number; name: string }[]) => {
      const map = new Map<number, { id: number; name: string }[]>();
      for (const row of rows) map.set(row.questionId, [...(map.get(row.questionId) ?? []), { id: row.id, name: row.name }]);
      return map;
    };
    const distinct = (rows: { id: number; name: string }[]) => [
      ...new Map(rows.map((r) => [r.id, { id: r.id, name: r.name }])).values(),
    ];
    return { kpOf: group(kps), chapterOf: group(chs), knowledgePoints: distinct(kps), chapters: distinct(chs) };
  }

  /** Keeps entries whose question carries the chosen knowledge point and chapter. */
  function byTags<T extends { questionId: number }>(
    rows: T[],
    tags: Awaited<ReturnType<typeof tagsOf>>,
    filter: BookFilter,
  ): T[] {
    return rows.filter(
      (row) =>
        (filter.knowledgePointId === undefined ||
          (tags.kpOf.get(row.questionId) ?? []).some((k) => k.id === filter.knowledgePointId)) &&
        (filter.chapterId === undefined || (tags.chapterOf.get(row.questionId) ?? []).some((c) => c.id === filter.chapterId)),
    );
  }

  async function classBook(userId: number, query: ClassBookQuery): Promise<ClassBook> {
    const access = await classAccess(userId, query.classId, query.subjectId);
    const roster = await db
      .select({ id: students.id, name: students.name, code: students.code })
      .from(students)
      .where(and(eq(students.orgId, access.actor.orgId), eq(students.classId, query.classId)))
      .orderBy(asc(students.code), asc(students.id));
    const all = await db
      .select({
        studentId: wrongQuestions.studentId,
        questionId: wrongQuestions.questionId,
        subjectId: wrongQuestions.subjectId,
        mastery: wrongQuestions.mastery,
        timesWrong: wrongQuestions.timesWrong,
        errorCause: wrongQuestions.errorCause,
        type: questions.type,
        stem: questions.stem,
      })
      .from(wrongQuestions)
      .innerJoin(students, eq(students.id, wrongQuestions.studentId))
      .innerJoin(questions, eq(questions.id, wrongQuestions.questionId))
      .where(and(eq(students.classId, query.classId), ...entryConditions(access, query)));
    const tags = await tagsOf([...new Set(all.map((r) => r.questionId))]);
    const rows = byTags(all, tags, query);

    const perQuestion = new Map<number, typeof rows>();
    for (const row of rows) perQuestion.set(row.questionId, [...(perQuestion.get(row.questionId) ?? []), row]);
    const questionIds = [...perQuestion.keys()];
    const rates = await classScoreRates(query.classId, questionIds, query);
    const countCauses = (list: { errorCause: string | null }[]) => {
      const counts = new Map<string, number>();
      for (const row of list)
        counts.set(row.errorCause ?? NO_CAUSE_LABEL, (counts.get(row.errorCause ?? NO_CAUSE_LABEL) ?? 0) + 1);
      return [...counts.entries()].map(([cause, count]) => ({ cause, count })).sort((a, b) => b.count - a.count);
    };
    const questionsOut = [...perQuestion.entries()]
      .map(([questionId, list]) => {
        const first = list[0]!;
        const rate = rates.get(questionId);
        return {
          questionId,
          subjectId: first.subjectId,
          type: first.type,
          stem: first.stem,
          knowledgePoints: (tags.kpOf.get(questionId) ?? []).map((k) => k.name),
          missedBy: list.length,
          open: list.filter((r) => r.mastery !== 'mastered').length,
          mastered: list.filter((r) => r.mastery === 'mastered').length,
          timesWrong: list.reduce((sum, r) => sum + r.timesWrong, 0),
          scoreRate: rate && rate.full > 0 ? rate.score / rate.full : null,
          attempts: rate?.attempts ?? 0,
          causes: countCauses(list),
        };
      })
      .sort((a, b) => b.missedBy - a.missedBy || (a.scoreRate ?? 1) - (b.scoreRate ?? 1) || a.questionId - b.questionId);
    return {
      klass: { id: access.klass.id, name: access.klass.name },
      students: roster.map((s) => {
        const own = rows.filter((r) => r.studentId === s.id);
        return {
          ...s,
          open: own.filter((r) => r.mastery !== 'mastered').length,
          mastered: own.filter((r) => r.mastery === 'mastered').length,
        };
      }),
      questions: questionsOut,
      causes: countCauses(rows),
      knowledgePoints: tags.knowledgePoints,
      chapters: tags.chapters,
    };
  }

  /** The class's 得分率 on questions over first attempts (re-practice homework left out), per question. */
  async function classScoreRates(classId: number, questionIds: number[], filter: BookFilter) {
    if (questionIds.length === 0) return new Map<number, { score: number; full: number; attempts: number }>();
    const conditions: SQL[] = [
      eq(students.classId, classId),
      inArray(paperQuestions.questionId, questionIds),
      notInArray(
        homework.id,
        sql`(select ${rehearseSets.homeworkId} from ${rehearseSets} where ${rehearseSets.homeworkId} is not null)`,
      ),
    ];
    if (filter.from) conditions.push(gte(homework.startDate, filter.from));
    if (filter.to) conditions.push(lte(homework.startDate, filter.to));
    const rows = await db
      .select({
        questionId: paperQuestions.questionId,
        score: sql<number>`sum(${questionScores.score})`.mapWith(Number),
        full: sql<number>`sum(${paperQuestions.score})`.mapWith(Number),
        attempts: sql<number>`count(distinct ${questionScores.studentId})`.mapWith(Number),
      })
      .from(questionScores)
      .innerJoin(students, eq(students.id, questionScores.studentId))
      .innerJoin(homework, eq(homework.id, questionScores.homeworkId))
      .innerJoin(
        paperQuestions,
        and(eq(paperQuestions.paperId, homework.paperId), eq(paperQuestions.no, questionScores.questionNo)),
      )
      .where(and(...conditions))
      .groupBy(paperQuestions.questionId);
    return new Map(rows.map((r) => [r.questionId, r]));
  }

  async function studentBook(userId: number, query: StudentBookQuery): Promise<StudentBook> {
    const actor = await loadActor(db, userId);
    const [student] = await db
      .select({ id: students.id, name: students.name, code: students.code, classId: students.classId, className: classes.name })
      .from(students)
      .innerJoin(classes, eq(classes.id, students.classId))
      .where(and(eq(students.id, query.studentId), eq(students.orgId, actor.orgId)));
    if (!student) throw ApiError.notFound();
    const access = await classAccess(userId, student.classId, query.subjectId);
    const all = await db
      .select({
        id: wrongQuestions.id,
        questionId: wrongQuestions.questionId,
        subjectId: wrongQuestions.subjectId,
        type: questions.type,
        stem: questions.stem,
        options: questions.options,
        key: questions.answer,
        analysis: questions.analysis,
        mastery: wrongQuestions.mastery,
        timesWrong: wrongQuestions.timesWrong,
        redoCount: wrongQuestions.redoCount,
        firstWrongOn: wrongQuestions.firstWrongOn,
        lastWrongOn: wrongQuestions.lastWrongOn,
        homeworkId: wrongQuestions.lastHomeworkId,
        homeworkTitle: homework.title,
        questionNo: wrongQuestions.lastQuestionNo,
        answeredQuestionId: wrongQuestions.lastAnsweredQuestionId,
        score: wrongQuestions.lastScore,
        fullScore: wrongQuestions.fullScore,
        errorCause: wrongQuestions.errorCause,
        labels: answers.labels,
        answerId: answers.id,
        regionPath: answers.regionPath,
      })
      .from(wrongQuestions)
      .innerJoin(questions, eq(questions.id, wrongQuestions.questionId))
      .innerJoin(homework, eq(homework.id, wrongQuestions.lastHomeworkId))
      .leftJoin(
        answers,
        and(
          eq(answers.homeworkId, wrongQuestions.lastHomeworkId),
          eq(answers.studentId, wrongQuestions.studentId),
          eq(answers.questionNo, wrongQuestions.lastQuestionNo),
        ),
      )
      .where(and(eq(wrongQuestions.studentId, student.id), ...entryConditions(access, query)))
      .orderBy(desc(wrongQuestions.lastWrongOn), asc(wrongQuestions.id));
    const tags = await tagsOf([...new Set(all.map((r) => r.questionId))]);
    const rows = byTags(all, tags, query).sort((a, b) => MASTERY_ORDER[a.mastery] - MASTERY_ORDER[b.mastery]);
    const counts = { pending: 0, redo1: 0, redo2: 0, mastered: 0 };
    for (const row of rows) counts[row.mastery] += 1;
    const entries: BookEntry[] = rows.map((row) => ({
      id: row.id,
      questionId: row.questionId,
      subjectId: row.subjectId,
      type: row.type,
      stem: row.stem,
      options: row.options,
      key: row.key,
      analysis: row.analysis,
      knowledgePoints: (tags.kpOf.get(row.questionId) ?? []).map((k) => k.name),
      mastery: row.mastery,
      timesWrong: row.timesWrong,
      redoCount: row.redoCount,
      firstWrongOn: row.firstWrongOn,
      lastWrongOn: row.lastWrongOn,
      homework: { id: row.homeworkId, name: row.homeworkTitle },
      questionNo: row.questionNo,
      answeredQuestionId: row.answeredQuestionId,
      score: row.score,
      fullScore: row.fullScore,
      errorCause: row.errorCause,
      labels: row.labels ?? null,
      answerId: row.answerId ?? null,
      hasImage: Boolean(row.regionPath),
    }));
    return { student, counts, entries, knowledgePoints: tags.knowledgePoints, chapters: tags.chapters };
  }

  return {
    classBook,
    studentBook,

    async options(userId: number): Promise<RehearseOptions> {
      const actor = await loadActor(db, userId);
      const years = await db
        .select({ id: classes.id, name: classes.name })
        .from(classes)
        .where(and(eq(classes.orgId, actor.orgId), eq(classes.type, CLASS_TYPE.schoolYear), isNull(classes.archivedAt)))
        .orderBy(asc(classes.sort), asc(classes.id));
      const klasses = await db
        .select({ id: classes.id, name: classes.name, schoolYearId: classes.pid, sort: classes.sort })
        .from(classes)
        .where(and(eq(classes.orgId, actor.orgId), eq(classes.type, CLASS_TYPE.klass), isNull(classes.archivedAt)))
        .orderBy(asc(classes.sort), asc(classes.id));
      const visible: RehearseOptions['classes'] = [];
      const yearsShown: { id: number; name: string }[] = [];
      for (const year of years) {
        const scope = await visibleScope(db, actor, year.id);
        if (scope.classes.length === 0) continue;
        yearsShown.push(year);
        for (const klass of klasses.filter((k) => k.schoolYearId === year.id)) {
          const entry = scope.classes.find((c) => c.classId === klass.id);
          if (entry)
            visible.push({
              id: klass.id,
              name: klass.name,
              schoolYearId: year.id,
              subjectIds: entry.subjects === 'all' ? null : entry.subjects,
            });
        }
      }
      const subjectRows = await db
        .select({ id: subjects.id, name: subjects.name })
        .from(subjects)
        .where(and(eq(subjects.orgId, actor.orgId), isNull(subjects.archivedAt)))
        .orderBy(asc(subjects.sort), asc(subjects.id));
      const settings = await loadRehearseSettings(db, actor.orgId);
      return { schoolYears: yearsShown, classes: visible, subjects: subjectRows, ...settings, canManage: isManager(actor) };
    },

    async classXlsx(userId: number, query: ClassBookQuery): Promise<{ file: Buffer; fileName: string }> {
      const book = await classBook(userId, query);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('高频错题');
      sheet.addRow(['序号', '题型', '题目', '知识点', '错题人数', '未掌握', '已掌握', '累计错次', '得分率', '作答人数', '错因']);
      book.questions.forEach((q, index) => {
        sheet.addRow([
          index + 1,
          QUESTION_TYPE_LABELS[q.type as QuestionType] ?? q.type,
          plainText(q.stem).slice(0, 500),
          q.knowledgePoints.join('、'),
          q.missedBy,
          q.open,
          q.mastered,
          q.timesWrong,
          // Without marks the cell stays empty, never 0.
          q.scoreRate === null ? null : Math.round(q.scoreRate * 1000) / 1000,
          q.attempts,
          q.causes.map((c) => `${c.cause} ${c.count}`).join('，'),
        ]);
      });
      sheet.getColumn(9).numFmt = '0.0%';
      sheet.getColumn(3).width = 60;
      sheet.getRow(1).font = { bold: true };
      const file = Buffer.from(await workbook.xlsx.writeBuffer());
      return { file, fileName: `${book.klass.name}-高频错题.xlsx` };
    },

    /** A student's book as a PDF for them to keep (answers, analysis, answer images); same scope as the book. */
    async studentPdf(userId: number, query: StudentBookQuery): Promise<{ file: Buffer; fileName: string }> {
      const book = await studentBook(userId, query);
      let subjectName = '全部学科';
      if (query.subjectId !== undefined) {
        const [subject] = await db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, query.subjectId));
        subjectName = subject?.name ?? subjectName;
      }
      const images = new Map<number, Uint8Array>();
      const withImage = book.entries.filter((e) => e.hasImage && e.answerId !== null && !(e.labels && e.labels.length > 0));
      if (storage && withImage.length > 0) {
        const rows = await db
          .select({ id: answers.id, regionPath: answers.regionPath })
          .from(answers)
          .where(
            inArray(
              answers.id,
              withImage.map((e) => e.answerId!),
            ),
          );
        for (const row of rows) {
          if (!row.regionPath) continue;
          try {
            images.set(row.id, await storage.read(row.regionPath));
          } catch {
            // An unreadable image prints as 无答题图片, like the page's 答题图片无法读取.
          }
        }
      }
      const file = await renderWrongBookPdf({ book, subjectName, scope: MASTERY_FILTER_LABELS[query.mastery], images });
      return {
        file: Buffer.from(file),
        fileName: `${book.student.className}-${book.student.code}-${book.student.name}-错题本.pdf`,
      };
    },

    async settings(userId: number) {
      const actor = await loadActor(db, userId);
      return loadRehearseSettings(db, actor.orgId);
    },

    async saveSettings(userId: number, body: RehearseSettingsBody) {
      const actor = await loadActor(db, userId);
      if (!isManager(actor)) throw ApiError.forbidden();
      const before = await loadRehearseSettings(db, actor.orgId);
      await db.transaction(async (tx) => {
        await tx
          .insert(rehearseSettings)
          .values({ orgId: actor.orgId, ...body })
          .onConflictDoUpdate({ target: rehearseSettings.orgId, set: body });
        // A new line changes which hand-marked answers are wrong: rebuild the school's book.
        if (before.subjectiveWrongPercent !== body.subjectiveWrongPercent) {
          const rows = await tx
            .selectDistinct({ id: questionScores.studentId })
            .from(questionScores)
            .where(eq(questionScores.orgId, actor.orgId));
          await recomputeWrongBook(
            tx as unknown as Db,
            actor.orgId,
            rows.map((r) => r.id),
          );
        }
      });
      return loadRehearseSettings(db, actor.orgId);
    },

    /** Sets the error cause of a book entry's latest wrong answer (kept on its question_scores row). */
    async setCause(userId: number, entryId: number, errorCause: string | null) {
      const actor = await loadActor(db, userId);
      const [entry] = await db
        .select()
        .from(wrongQuestions)
        .where(and(eq(wrongQuestions.id, entryId), eq(wrongQuestions.orgId, actor.orgId)));
      if (!entry) throw ApiError.notFound();
      const [student] = await db.select({ classId: students.classId }).from(students).where(eq(students.id, entry.studentId));
      await classAccess(userId, student!.classId, entry.subjectId);
      const settings = await loadRehearseSettings(db, actor.orgId);
      if (errorCause !== null && !settings.errorCauses.includes(errorCause))
        throw ApiError.badRequest(MARKING_MESSAGES.unknownErrorCause);
      await db.transaction(async (tx) => {
        await tx
          .update(questionScores)
          .set({ errorCause })
          .where(
            and(
              eq(questionScores.homeworkId, entry.lastHomeworkId),
              eq(questionScores.studentId, entry.studentId),
              eq(questionScores.questionNo, entry.lastQuestionNo),
            ),
          );
        await recomputeWrongBook(tx as unknown as Db, actor.orgId, [entry.studentId]);
      });
      return { errorCause };
    },

    /** 加入错题重练: queues a question of a homework for the next set of one or all of its classes. */
    async enqueue(userId: number, body: { homeworkId: number; questionNo: number; classId?: number }) {
      const actor = await loadActor(db, userId);
      const [row] = await db
        .select({ id: homework.id, subjectId: papers.subjectId, questionId: paperQuestions.questionId })
        .from(homework)
        .innerJoin(papers, eq(papers.id, homework.paperId))
        .leftJoin(paperQuestions, and(eq(paperQuestions.paperId, homework.paperId), eq(paperQuestions.no, body.questionNo)))
        .where(and(eq(homework.id, body.homeworkId), eq(homework.orgId, actor.orgId)));
      if (!row) throw ApiError.notFound();
      if (row.questionId === null) throw ApiError.badRequest('此作业没有这道题');
      const homeworkClassIds = (
        await db.select({ classId: homeworkClasses.classId }).from(homeworkClasses).where(eq(homeworkClasses.homeworkId, row.id))
      ).map((r) => r.classId);
      if (body.classId !== undefined && !homeworkClassIds.includes(body.classId))
        throw ApiError.badRequest('此班级没有布置这份作业');
      const targets = body.classId !== undefined ? [body.classId] : homeworkClassIds;
      const allowed: number[] = [];
      for (const classId of targets) {
        try {
          await classAccess(userId, classId, row.subjectId);
          allowed.push(classId);
        } catch (error) {
          if (body.classId !== undefined) throw error;
        }
      }
      if (allowed.length === 0) throw ApiError.forbidden();
      const inserted = await db
        .insert(rehearseQueue)
        .values(
          allowed.map((classId) => ({
            orgId: actor.orgId,
            classId,
            subjectId: row.subjectId,
            questionId: row.questionId!,
            homeworkId: row.id,
            addedBy: userId,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: rehearseQueue.id });
      return { added: inserted.length, already: allowed.length - inserted.length };
    },

    /** Per question of a homework: how many wrong answers had each error cause (one class, or all). */
    async homeworkCauses(userId: number, homeworkId: number, classId?: number) {
      const actor = await loadActor(db, userId);
      const [row] = await db
        .select({ id: homework.id })
        .from(homework)
        .where(and(eq(homework.id, homeworkId), eq(homework.orgId, actor.orgId)));
      if (!row) throw ApiError.notFound();
      const conditions: SQL[] = [eq(questionScores.homeworkId, homeworkId), isNotNull(questionScores.errorCause)];
      if (classId !== undefined) conditions.push(eq(students.classId, classId));
      const rows = await db
        .select({
          questionNo: questionScores.questionNo,
          cause: questionScores.errorCause,
          count: sql<number>`count(*)`.mapWith(Number),
        })
        .from(questionScores)
        .innerJoin(students, eq(students.id, questionScores.studentId))
        .innerJoin(homework, eq(homework.id, questionScores.homeworkId))
        .innerJoin(
          paperQuestions,
          and(eq(paperQuestions.paperId, homework.paperId), eq(paperQuestions.no, questionScores.questionNo)),
        )
        .where(and(...conditions, sql`${questionScores.score} < ${paperQuestions.score}`))
        .groupBy(questionScores.questionNo, questionScores.errorCause)
        .orderBy(asc(questionScores.questionNo), desc(sql`count(*)`));
      const byQuestion = new Map<number, { cause: string; count: number }[]>();
      for (const r of rows)
        byQuestion.set(r.questionNo, [...(byQuestion.get(r.questionNo) ?? []), { cause: r.cause!, count: r.count }]);
      return [...byQuestion.entries()].map(([questionNo, causes]) => ({ questionNo, causes }));
    },

    async queue(userId: number, query: { classId: number; subjectId?: number }) {
      const access = await classAccess(userId, query.classId, query.subjectId);
      const conditions: SQL[] = [eq(rehearseQueue.classId, query.classId), isNull(rehearseQueue.setId)];
      if (query.subjectId !== undefined) conditions.push(eq(rehearseQueue.subjectId, query.subjectId));
      else if (access.subjects !== 'all')
        conditions.push(inArray(rehearseQueue.subjectId, access.subjects.length ? access.subjects : [-1]));
      const rows = await db
        .select({
          id: rehearseQueue.id,
          classId: rehearseQueue.classId,
          subjectId: rehearseQueue.subjectId,
          questionId: rehearseQueue.questionId,
          homeworkId: rehearseQueue.homeworkId,
          addedBy: rehearseQueue.addedBy,
          addedAt: rehearseQueue.addedAt,
          stem: questions.stem,
        })
        .from(rehearseQueue)
        .innerJoin(questions, eq(questions.id, rehearseQueue.questionId))
        .where(and(...conditions))
        .orderBy(asc(rehearseQueue.addedAt));
      return rows.map((r) => ({ ...r, addedAt: r.addedAt.toISOString() }));
    },
  };
}
