/**
 * Papers (试卷) of a school: saving a composed paper, reading it with its questions in full, changing
 * and deleting it, and composing a draft from rules (自动组卷). Keeps each question's usage count equal
 * to the number of papers that use it. Owns no rendering (see paper-docx.ts).
 */
import type { MaterialPage, materialListQuerySchema, shareRequestSchema } from '../../../src/shared/contract/materials';
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, notExists, notInArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AutoComposeRule,
  DIFFICULTY_LABELS,
  type Difficulty,
  type Paged,
  type PaperDetail,
  type PaperDraft,
  type PaperSummary,
  QUESTION_TYPE_LABELS,
  type autoComposeRequestSchema,
  gradeTextbookPrefix,
  type paperInputSchema,
  type paperListQuerySchema,
  schoolYearGrade,
} from '../../../src/shared/contract/papers';
import type { Db } from '../../db/client';
import { pageOf } from './paged';
import { shareToLibrary, unshareFromLibrary } from './library-sharing';
import {
  answerSheetTemplates,
  chapters,
  classes,
  homework,
  homeworkStudentPapers,
  paperQuestions,
  papers,
  paperSections,
  questionChapters,
  questions,
  subjects,
  users,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { can, loadActor } from '../org/permissions';
import { descendantIds, escapeLike, loadQuestions, visibleChapterSubtree, visibleQuestionsOf } from './question-bank.service';
import {
  requireOwnerOrAdmin,
  requireSchool,
  requireSchoolYear,
  requireSubject,
  sameNameSubjectIds,
  type SchoolScope,
} from './school-scope';

type PaperInputData = z.output<typeof paperInputSchema>;
type AutoComposeData = z.output<typeof autoComposeRequestSchema>;
type PaperListData = z.output<typeof paperListQuerySchema>;
type MaterialListData = z.output<typeof materialListQuerySchema>;
type ShareData = z.output<typeof shareRequestSchema>;

/** Most questions one paper may hold. */
export const MAX_PAPER_QUESTIONS = 300;

const CHINESE_NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];

/** '一、单选题（每题 3 分，共 15 分）' */
export function sectionTitle(index: number, rule: Pick<AutoComposeRule, 'type' | 'count' | 'score'>): string {
  const numeral = CHINESE_NUMERALS[index] ?? String(index + 1);
  return `${numeral}、${QUESTION_TYPE_LABELS[rule.type]}（每题 ${rule.score} 分，共 ${rule.score * rule.count} 分）`;
}

function roundScore(value: number) {
  return Math.round(value * 100) / 100;
}

export type PaperService = ReturnType<typeof createPaperService>;

export function createPaperService({
  db,
  random = Math.random,
  today = () => new Date(),
}: {
  db: Db;
  random?: () => number;
  /** The date that decides which grade a school year is in (auto-compose's default range). */
  today?: () => Date;
}) {
  async function requirePaper(scope: SchoolScope, id: number) {
    const [paper] = await db
      .select()
      .from(papers)
      .where(and(eq(papers.id, id), eq(papers.orgId, scope.orgId)));
    if (!paper) throw ApiError.notFound();
    return paper;
  }

  /** Subject, school year and questions of a paper payload, checked against the school. */
  async function checkInput(scope: SchoolScope, input: PaperInputData) {
    const subject = await requireSubject(db, scope, input.subjectId).catch(() => {
      throw ApiError.badRequest('学科不存在');
    });
    await requireSchoolYear(db, scope, input.schoolYearId);
    const ids = input.sections.flatMap((section) => section.questions.map((q) => q.questionId));
    if (ids.length > MAX_PAPER_QUESTIONS) throw ApiError.badRequest(`一份试卷最多 ${MAX_PAPER_QUESTIONS} 道题`);
    if (new Set(ids).size !== ids.length) throw ApiError.badRequest('同一道试题不能在试卷中出现两次');
    const visible = await db
      .select({ id: questions.id })
      .from(questions)
      .where(and(inArray(questions.id, ids), await visibleQuestionsOf(db, scope, subject)));
    if (visible.length !== ids.length) {
      const known = new Set(visible.map((row) => row.id));
      const missing = ids.filter((id) => !known.has(id));
      throw ApiError.badRequest(`试题不存在或不属于该学科：${missing.slice(0, 5).join('、')}`);
    }
    return subject;
  }

  async function writeSections(tx: Db, paperId: number, input: PaperInputData) {
    let no = 0;
    for (const [sort, section] of input.sections.entries()) {
      const [row] = await tx
        .insert(paperSections)
        .values({ paperId, sort, title: section.title })
        .returning({ id: paperSections.id });
      await tx.insert(paperQuestions).values(
        section.questions.map((q) => {
          no += 1;
          return { paperId, sectionId: row!.id, questionId: q.questionId, no, score: q.score };
        }),
      );
    }
  }

  async function refreshUsage(tx: Db, questionIds: number[]) {
    if (questionIds.length === 0) return;
    await tx
      .update(questions)
      .set({
        usageCount: sql`(select count(distinct ${paperQuestions.paperId}) from ${paperQuestions} where ${paperQuestions.questionId} = ${questions.id})`,
      })
      .where(inArray(questions.id, [...new Set(questionIds)]));
  }

  async function questionIdsOf(tx: Db, paperId: number) {
    const rows = await tx
      .select({ id: paperQuestions.questionId })
      .from(paperQuestions)
      .where(eq(paperQuestions.paperId, paperId));
    return rows.map((row) => row.id);
  }

  /** The paper with its sections and full questions. */
  async function detail(paperId: number): Promise<PaperDetail> {
    const [paper] = await db.select().from(papers).where(eq(papers.id, paperId));
    if (!paper) throw ApiError.notFound();
    const [sectionRows, refRows] = await Promise.all([
      db.select().from(paperSections).where(eq(paperSections.paperId, paperId)).orderBy(asc(paperSections.sort)),
      db.select().from(paperQuestions).where(eq(paperQuestions.paperId, paperId)).orderBy(asc(paperQuestions.no)),
    ]);
    const [subject] = await requireSubjectName(paper.subjectId);
    const full = new Map(
      (
        await loadQuestions(
          db,
          refRows.map((r) => r.questionId),
        )
      ).map((q) => [q.id, q]),
    );
    const sections = sectionRows.map((section) => ({
      title: section.title,
      questions: refRows
        .filter((ref) => ref.sectionId === section.id)
        .map((ref) => ({ questionId: ref.questionId, score: ref.score, no: ref.no, question: full.get(ref.questionId)! })),
    }));
    return {
      id: paper.id,
      title: paper.title,
      subjectId: paper.subjectId,
      subjectName: subject?.name ?? '',
      schoolYearId: paper.schoolYearId,
      paperSize: paper.paperSize === 'A3' ? 'A3' : 'A4',
      sections,
      totalScore: roundScore(refRows.reduce((sum, ref) => sum + ref.score, 0)),
      questionCount: refRows.length,
    };
  }

  function requireSubjectName(subjectId: number) {
    return db.select({ name: subjects.name }).from(subjects).where(eq(subjects.id, subjectId));
  }

  /** Questions of one rule, drawn at random from those not yet picked. */
  async function drawRule(
    scope: SchoolScope,
    subject: { id: number; name: string },
    rule: AutoComposeRule,
    chapterFilter: number[] | undefined,
    picked: number[],
  ) {
    const filters = [await visibleQuestionsOf(db, scope, subject), eq(questions.type, rule.type)];
    if (rule.difficulty !== undefined) filters.push(eq(questions.difficulty, rule.difficulty));
    if (picked.length > 0) filters.push(notInArray(questions.id, picked));
    if (chapterFilter) {
      filters.push(
        inArray(
          questions.id,
          db
            .select({ id: questionChapters.questionId })
            .from(questionChapters)
            .where(inArray(questionChapters.chapterId, chapterFilter)),
        ),
      );
    }
    const rows = await db
      .select({ id: questions.id })
      .from(questions)
      .where(and(...filters))
      .orderBy(asc(questions.id));
    return rows.map((row) => row.id);
  }

  /** 我的试卷 rows in the given order, with subject, school year, author, totals and use. */
  async function summarize(scope: SchoolScope, ids: number[]): Promise<PaperSummary[]> {
    if (ids.length === 0) return [];
    const [rows, totals, uses] = await Promise.all([
      db
        .select({
          id: papers.id,
          title: papers.title,
          paperSize: papers.paperSize,
          createdAt: papers.createdAt,
          subjectId: subjects.id,
          subjectName: subjects.name,
          schoolYearId: classes.id,
          schoolYearName: classes.name,
          authorId: users.id,
          authorName: users.nickname,
          sharedAt: papers.sharedAt,
          chapterId: chapters.id,
          chapterName: chapters.name,
        })
        .from(papers)
        .innerJoin(subjects, eq(subjects.id, papers.subjectId))
        .innerJoin(classes, eq(classes.id, papers.schoolYearId))
        .leftJoin(users, eq(users.id, papers.createdBy))
        .leftJoin(chapters, eq(chapters.id, papers.sharedChapterId))
        .where(inArray(papers.id, ids)),
      db
        .select({
          paperId: paperQuestions.paperId,
          total: sql<number>`coalesce(sum(${paperQuestions.score}), 0)`,
          questions: count(),
        })
        .from(paperQuestions)
        .where(inArray(paperQuestions.paperId, ids))
        .groupBy(paperQuestions.paperId),
      db
        .select({ paperId: homework.paperId, uses: count() })
        .from(homework)
        .where(inArray(homework.paperId, ids))
        .groupBy(homework.paperId),
    ]);
    return ids.flatMap((id) => {
      const row = rows.find((r) => r.id === id);
      if (!row) return [];
      const total = totals.find((t) => t.paperId === id);
      return [
        {
          id,
          title: row.title,
          subject: { id: row.subjectId, name: row.subjectName },
          schoolYear: { id: row.schoolYearId, name: row.schoolYearName },
          paperSize: row.paperSize === 'A3' ? 'A3' : 'A4',
          totalScore: roundScore(Number(total?.total ?? 0)),
          questionCount: total?.questions ?? 0,
          createdBy: row.authorId === null || row.authorName === null ? null : { id: row.authorId, name: row.authorName },
          mine: row.authorId === scope.userId,
          homeworkCount: uses.find((u) => u.paperId === id)?.uses ?? 0,
          createdAt: row.createdAt.toISOString(),
          sharedAt: row.sharedAt?.toISOString() ?? null,
          sharedChapter: row.chapterId === null || row.chapterName === null ? null : { id: row.chapterId, name: row.chapterName },
        },
      ];
    });
  }

  /** The top-level textbook chapters of the school year's grade (七年级上册, 七年级下册), with their subtrees. */
  async function gradeRange(scope: SchoolScope, subject: { id: number; name: string }, schoolYearName: string) {
    const grade = schoolYearGrade(schoolYearName, today());
    if (grade === null) return null;
    const prefix = gradeTextbookPrefix(grade);
    const nodes = await usableChapters(scope, subject);
    const books = nodes.filter((n) => n.pid === null && n.name.startsWith(prefix));
    if (books.length === 0) return null;
    return {
      chapterIds: [...new Set(books.flatMap((book) => descendantIds(nodes, book.id)))],
      drawnFrom: books.map((book) => book.name).join('、'),
    };
  }

  /** The chapters a school's subject reads: the shared bank's and the school's own. */
  async function usableChapters(scope: SchoolScope, subject: { id: number; name: string }) {
    const sameName = await sameNameSubjectIds(db, subject.name);
    const nodes = await db
      .select({
        id: chapters.id,
        pid: chapters.pid,
        name: chapters.name,
        orgId: chapters.orgId,
        subjectId: chapters.subjectId,
        sort: chapters.sort,
      })
      .from(chapters)
      .where(inArray(chapters.subjectId, sameName))
      .orderBy(asc(chapters.sort), asc(chapters.id));
    return nodes.filter((n) => (n.orgId === null ? true : n.orgId === scope.orgId && n.subjectId === subject.id));
  }

  /** One page of papers matching the filters, as 我的试卷 rows. */
  async function page(
    scope: SchoolScope,
    filters: SQL[],
    query: { page: number; pageSize: number },
    order: SQL[],
  ): Promise<Paged<PaperSummary>> {
    return pageOf(db, papers, papers.id, and(...filters), order, query, (ids) => summarize(scope, ids));
  }

  return {
    async list(userId: number, query: PaperListData): Promise<Paged<PaperSummary>> {
      const scope = await requireSchool(db, userId);
      const filters: SQL[] = [
        eq(papers.orgId, scope.orgId),
        // A personalised set's papers (one per student) belong to its homework, not to 我的试卷.
        notExists(
          db
            .select({ id: homeworkStudentPapers.paperId })
            .from(homeworkStudentPapers)
            .where(eq(homeworkStudentPapers.paperId, papers.id)),
        ),
      ];
      if (query.scope === 'mine') filters.push(eq(papers.createdBy, userId));
      if (query.keyword) filters.push(ilike(papers.title, `%${escapeLike(query.keyword)}%`));
      if (query.subjectId) filters.push(eq(papers.subjectId, query.subjectId));
      if (query.schoolYearId) filters.push(eq(papers.schoolYearId, query.schoolYearId));
      return page(scope, filters, query, [desc(papers.createdAt), desc(papers.id)]);
    },

    /** 校本资料: the school's shared papers, newest share first; a chapter filter includes its subchapters. */
    async listShared(userId: number, query: MaterialListData): Promise<MaterialPage> {
      const scope = await requireSchool(db, userId);
      const filters: SQL[] = [eq(papers.orgId, scope.orgId), isNotNull(papers.sharedAt)];
      if (query.keyword) filters.push(ilike(papers.title, `%${escapeLike(query.keyword)}%`));
      if (query.subjectId) filters.push(eq(papers.subjectId, query.subjectId));
      if (query.schoolYearId) filters.push(eq(papers.schoolYearId, query.schoolYearId));
      if (query.chapterId) {
        const ids = await visibleChapterSubtree(db, scope, query.chapterId);
        filters.push(ids.length > 0 ? inArray(papers.sharedChapterId, ids) : sql`false`);
      }
      const [result, actor] = await Promise.all([
        page(scope, filters, query, [desc(papers.sharedAt), desc(papers.id)]),
        loadActor(db, userId, scope.orgId),
      ]);
      return { ...result, canRemoveAny: can(actor, { kind: 'owned.edit', ownerId: null }) };
    },

    /** 共享到校本资料: the owner files their paper under a chapter of its subject (or none); sharing again refiles it. */
    async share(userId: number, id: number, request: ShareData): Promise<PaperSummary> {
      const scope = await requireSchool(db, userId);
      const paper = await requirePaper(scope, id);
      if (paper.createdBy !== userId) throw ApiError.forbidden();
      if (request.chapterId !== null) {
        const [subject] = await db
          .select({ id: subjects.id, name: subjects.name })
          .from(subjects)
          .where(eq(subjects.id, paper.subjectId));
        const nodes = subject ? await usableChapters(scope, subject) : [];
        if (!nodes.some((n) => n.id === request.chapterId)) throw ApiError.badRequest('章节不存在或不属于该试卷的学科');
      }
      await shareToLibrary(scope, paper, (sharedAt) =>
        db.update(papers).set({ sharedAt, sharedChapterId: request.chapterId }).where(eq(papers.id, id)),
      );
      const [summary] = await summarize(scope, [id]);
      return summary!;
    },

    /** 撤回 (the owner) or 移除 (an admin) a paper from 校本资料; the paper itself stays. */
    async unshare(userId: number, id: number): Promise<null> {
      const scope = await requireSchool(db, userId);
      const paper = await requirePaper(scope, id);
      await unshareFromLibrary(db, scope, paper, () =>
        db.update(papers).set({ sharedAt: null, sharedChapterId: null }).where(eq(papers.id, id)),
      );
      return null;
    },

    detail: async (userId: number, id: number) => {
      const scope = await requireSchool(db, userId);
      await requirePaper(scope, id);
      return detail(id);
    },

    /** Paper detail for other services that already checked the school. */
    detailOf: detail,

    requirePaper,

    async create(userId: number, input: PaperInputData): Promise<PaperDetail> {
      const scope = await requireSchool(db, userId);
      await checkInput(scope, input);
      const id = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .insert(papers)
          .values({
            orgId: scope.orgId,
            subjectId: input.subjectId,
            schoolYearId: input.schoolYearId,
            title: input.title,
            paperSize: input.paperSize,
            createdBy: userId,
          })
          .returning({ id: papers.id });
        await writeSections(tx, row!.id, input);
        await refreshUsage(tx, await questionIdsOf(tx, row!.id));
        return row!.id;
      });
      return detail(id);
    },

    async update(userId: number, id: number, input: PaperInputData): Promise<PaperDetail> {
      const scope = await requireSchool(db, userId);
      const paper = await requirePaper(scope, id);
      await requireOwnerOrAdmin(db, scope, paper.createdBy);
      await checkInput(scope, input);
      const [printed] = await db
        .select({ value: count() })
        .from(answerSheetTemplates)
        .innerJoin(homework, eq(homework.id, answerSheetTemplates.homeworkId))
        .where(eq(homework.paperId, id));
      if ((printed?.value ?? 0) > 0) throw ApiError.badRequest('答题卡已生成，试卷不能再修改');
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const before = await questionIdsOf(tx, id);
        await tx
          .update(papers)
          .set({ subjectId: input.subjectId, schoolYearId: input.schoolYearId, title: input.title, paperSize: input.paperSize })
          .where(eq(papers.id, id));
        await tx.delete(paperSections).where(eq(paperSections.paperId, id));
        await writeSections(tx, id, input);
        await refreshUsage(tx, [...before, ...(await questionIdsOf(tx, id))]);
      });
      return detail(id);
    },

    /** A colleague's (or one's own) paper copied into a new paper of the caller's, titled 「…（副本）」. */
    async copy(userId: number, id: number): Promise<PaperDetail> {
      const scope = await requireSchool(db, userId);
      const source = await requirePaper(scope, id);
      const refs = await db.select().from(paperQuestions).where(eq(paperQuestions.paperId, id)).orderBy(asc(paperQuestions.no));
      const sectionRows = await db
        .select()
        .from(paperSections)
        .where(eq(paperSections.paperId, id))
        .orderBy(asc(paperSections.sort));
      const newId = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .insert(papers)
          .values({
            orgId: scope.orgId,
            subjectId: source.subjectId,
            schoolYearId: source.schoolYearId,
            title: `${source.title}（副本）`.slice(0, 100),
            paperSize: source.paperSize,
            createdBy: userId,
          })
          .returning({ id: papers.id });
        await writeSections(tx, row!.id, {
          title: source.title,
          subjectId: source.subjectId,
          schoolYearId: source.schoolYearId,
          paperSize: source.paperSize === 'A3' ? 'A3' : 'A4',
          sections: sectionRows.map((section) => ({
            title: section.title,
            questions: refs
              .filter((ref) => ref.sectionId === section.id)
              .map((ref) => ({ questionId: ref.questionId, score: ref.score })),
          })),
        } as PaperInputData);
        await refreshUsage(
          tx,
          refs.map((ref) => ref.questionId),
        );
        return row!.id;
      });
      return detail(newId);
    },

    async remove(userId: number, id: number): Promise<null> {
      const scope = await requireSchool(db, userId);
      const paper = await requirePaper(scope, id);
      await requireOwnerOrAdmin(db, scope, paper.createdBy);
      const [used] = await db.select({ value: count() }).from(homework).where(eq(homework.paperId, id));
      if ((used?.value ?? 0) > 0) throw ApiError.badRequest('试卷已布置为作业，不能删除');
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const before = await questionIdsOf(tx, id);
        await tx.delete(papers).where(eq(papers.id, id));
        await refreshUsage(tx, before);
      });
      return null;
    },

    async autoCompose(userId: number, request: AutoComposeData): Promise<PaperDraft> {
      const scope = await requireSchool(db, userId);
      const subject = await requireSubject(db, scope, request.subjectId).catch(() => {
        throw ApiError.badRequest('学科不存在');
      });
      const schoolYear = await requireSchoolYear(db, scope, request.schoolYearId);
      let chapterFilter: number[] | undefined;
      let drawnFrom = `${subject.name}全部章节`;
      if (request.chapterIds && request.chapterIds.length > 0) {
        const usable = await usableChapters(scope, subject);
        if (request.chapterIds.some((id) => !usable.some((n) => n.id === id))) throw ApiError.badRequest('章节不属于该学科');
        chapterFilter = [...new Set(request.chapterIds.flatMap((id) => descendantIds(usable, id)))];
        drawnFrom = '所选章节';
      } else if (request.range === 'schoolYear') {
        // A paper for 初一 draws from 七年级 textbooks unless the teacher asks for the whole subject.
        const range = await gradeRange(scope, subject, schoolYear.name);
        if (range) {
          chapterFilter = range.chapterIds;
          drawnFrom = range.drawnFrom;
        }
      }

      const picked: number[] = [];
      const sections: { title: string; ids: number[]; score: number }[] = [];
      for (const [i, rule] of request.rules.entries()) {
        const candidates = await drawRule(scope, subject, rule, chapterFilter, picked);
        if (candidates.length < rule.count) {
          const level = rule.difficulty ? `、难度${DIFFICULTY_LABELS[rule.difficulty as Difficulty]}` : '';
          throw ApiError.badRequest(
            `第 ${i + 1} 条规则（${QUESTION_TYPE_LABELS[rule.type]}${level}）需要 ${rule.count} 道题，${drawnFrom}中只有 ${candidates.length} 道符合条件的试题`,
          );
        }
        const chosen = shuffle(candidates, random)
          .slice(0, rule.count)
          .sort((a, b) => a - b);
        picked.push(...chosen);
        sections.push({ title: sectionTitle(i, rule), ids: chosen, score: rule.score });
      }

      const full = new Map((await loadQuestions(db, picked)).map((q) => [q.id, q]));
      let no = 0;
      const draftSections = sections.map((section) => ({
        title: section.title,
        questions: section.ids.map((questionId) => {
          no += 1;
          return { questionId, score: section.score, no, question: full.get(questionId)! };
        }),
      }));
      return {
        title: request.title ?? `${subject.name}练习`,
        subjectId: subject.id,
        subjectName: subject.name,
        schoolYearId: request.schoolYearId,
        paperSize: request.paperSize,
        sections: draftSections,
        totalScore: roundScore(sections.reduce((sum, s) => sum + s.score * s.ids.length, 0)),
        questionCount: no,
        drawnFrom,
      };
    },
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
