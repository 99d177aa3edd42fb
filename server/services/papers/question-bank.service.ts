/**
 * The question bank (题库) as a school sees it: its subjects, the chapter and knowledge-point trees, and
 * the questions of the shared bank plus the school's own. Only the school's own questions can be
 * written. Owns question validation beyond the contract (chapters and knowledge points of the subject).
 */
import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  Paged,
  Question,
  QuestionType,
  TreeNode,
  questionInputSchema,
  questionQuerySchema,
} from '../../../src/shared/contract/papers';
import type { Db } from '../../db/client';
import { pageOf } from './paged';
import {
  chapters,
  knowledgePoints,
  paperQuestions,
  questionChapters,
  questionKnowledgePoints,
  questions,
  subjects,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { can, loadActor } from '../org/permissions';
import { requireOwnerOrAdmin, requireSchool, requireSubject, sameNameSubjectIds, type SchoolScope } from './school-scope';

type QuestionRow = typeof questions.$inferSelect;
type QuestionInputData = z.output<typeof questionInputSchema>;
type TreeRow = { id: number; pid: number | null; name: string };

export type QuestionBankService = ReturnType<typeof createQuestionBankService>;

/** Nests rows (already in display order) by `pid`; a row whose parent is missing becomes a root. */
export function buildTree(rows: TreeRow[]): TreeNode[] {
  const nodes = new Map<number, TreeNode>(rows.map((row) => [row.id, { id: row.id, name: row.name, children: [] }]));
  const roots: TreeNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.pid === null ? undefined : nodes.get(row.pid);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** `id` and every node below it. */
export function descendantIds(rows: TreeRow[], id: number): number[] {
  const result = [id];
  for (let i = 0; i < result.length; i += 1) {
    for (const row of rows) if (row.pid === result[i]) result.push(row.id);
  }
  return result;
}

export function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The questions one subject of a school may use: its shared bank and the school's own. */
export async function visibleQuestionsOf(db: Db, scope: SchoolScope, subject: { id: number; name: string }): Promise<SQL> {
  const sameName = await sameNameSubjectIds(db, subject.name);
  return or(
    and(eq(questions.orgId, scope.orgId), eq(questions.subjectId, subject.id)),
    and(isNull(questions.orgId), inArray(questions.subjectId, sameName)),
  )!;
}

/** The chapters (or knowledge points) a subject of a school may use, in display order. */
export async function visibleNodes(
  db: Db,
  table: typeof chapters | typeof knowledgePoints,
  scope: SchoolScope,
  subject: { id: number; name: string },
) {
  const sameName = await sameNameSubjectIds(db, subject.name);
  return db
    .select({ id: table.id, pid: table.pid, name: table.name })
    .from(table)
    .where(
      or(
        and(eq(table.orgId, scope.orgId), eq(table.subjectId, subject.id)),
        and(isNull(table.orgId), inArray(table.subjectId, sameName)),
      ),
    )
    .orderBy(sql`${table.orgId} nulls first`, asc(table.sort), asc(table.id));
}

/**
 * A chapter (or knowledge point) and those below it, as far as the school can see them (校本资料's 章节
 * filter of papers and of question sets, 知识点 of question sets); none for one the school cannot see.
 */
export async function visibleSubtree(
  db: Db,
  scope: SchoolScope,
  table: typeof chapters | typeof knowledgePoints,
  nodeId: number,
): Promise<number[]> {
  const [node] = await db
    .select({ subjectId: table.subjectId, subjectName: subjects.name })
    .from(table)
    .innerJoin(subjects, eq(subjects.id, table.subjectId))
    .where(eq(table.id, nodeId));
  if (!node) return [];
  const nodes = await visibleNodes(db, table, scope, { id: node.subjectId, name: node.subjectName });
  return nodes.some((n) => n.id === nodeId) ? descendantIds(nodes, nodeId) : [];
}

export const visibleChapterSubtree = (db: Db, scope: SchoolScope, chapterId: number) =>
  visibleSubtree(db, scope, chapters, chapterId);

/** Questions by id with their chapters and knowledge points, in the order of `ids`. */
export async function loadQuestions(db: Db, ids: number[]): Promise<Question[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const [rows, chapterLinks, pointLinks] = await Promise.all([
    db.select().from(questions).where(inArray(questions.id, unique)),
    db
      .select({ questionId: questionChapters.questionId, chapterId: questionChapters.chapterId })
      .from(questionChapters)
      .where(inArray(questionChapters.questionId, unique))
      .orderBy(asc(questionChapters.chapterId)),
    db
      .select({ questionId: questionKnowledgePoints.questionId, id: knowledgePoints.id, name: knowledgePoints.name })
      .from(questionKnowledgePoints)
      .innerJoin(knowledgePoints, eq(knowledgePoints.id, questionKnowledgePoints.knowledgePointId))
      .where(inArray(questionKnowledgePoints.questionId, unique))
      .orderBy(asc(knowledgePoints.id)),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const points = pointLinks.filter((link) => link.questionId === id);
    return [
      toQuestion(
        row,
        chapterLinks.filter((link) => link.questionId === id).map((link) => link.chapterId),
        points,
      ),
    ];
  });
}

function toQuestion(row: QuestionRow, chapterIds: number[], points: { id: number; name: string }[]): Question {
  return {
    id: row.id,
    subjectId: row.subjectId,
    type: row.type as QuestionType,
    stem: row.stem,
    options: row.options,
    answer: row.answer,
    analysis: row.analysis,
    difficulty: row.difficulty,
    chapterIds,
    knowledgePointIds: points.map((p) => p.id),
    knowledgePointNames: points.map((p) => p.name),
    source: row.source,
    usageCount: row.usageCount,
    shared: row.orgId === null,
  };
}

export function createQuestionBankService({ db }: { db: Db }) {
  /**
   * The school's own question that the caller may change (its author or an admin), or 403 for a shared
   * one or a colleague's, and 404 for anything else.
   */
  async function requireOwnQuestion(scope: SchoolScope, id: number) {
    const [row] = await db
      .select({ id: questions.id, orgId: questions.orgId, createdBy: questions.createdBy })
      .from(questions)
      .where(eq(questions.id, id));
    if (!row || (row.orgId !== null && row.orgId !== scope.orgId)) throw ApiError.notFound();
    if (row.orgId === null) throw ApiError.forbidden();
    await requireOwnerOrAdmin(db, scope, row.createdBy);
    return row;
  }

  /** Checks the links of a question against the subject's trees; answers what to store. */
  async function checkedInput(scope: SchoolScope, raw: QuestionInputData) {
    const subject = await requireSubject(db, scope, raw.subjectId).catch(() => {
      throw ApiError.badRequest('学科不存在');
    });
    const chapterIds = [...new Set(raw.chapterIds)];
    const pointIds = [...new Set(raw.knowledgePointIds)];
    if (chapterIds.length > 0) {
      const known = new Set((await visibleNodes(db, chapters, scope, subject)).map((n) => n.id));
      if (chapterIds.some((id) => !known.has(id))) throw ApiError.badRequest('章节不属于该学科');
    }
    if (pointIds.length > 0) {
      const known = new Set((await visibleNodes(db, knowledgePoints, scope, subject)).map((n) => n.id));
      if (pointIds.some((id) => !known.has(id))) throw ApiError.badRequest('知识点不属于该学科');
    }
    return { subject, chapterIds, pointIds };
  }

  async function writeLinks(tx: Db, questionId: number, chapterIds: number[], pointIds: number[]) {
    await tx.delete(questionChapters).where(eq(questionChapters.questionId, questionId));
    await tx.delete(questionKnowledgePoints).where(eq(questionKnowledgePoints.questionId, questionId));
    if (chapterIds.length > 0) {
      await tx.insert(questionChapters).values(chapterIds.map((chapterId) => ({ questionId, chapterId })));
    }
    if (pointIds.length > 0) {
      await tx.insert(questionKnowledgePoints).values(pointIds.map((knowledgePointId) => ({ questionId, knowledgePointId })));
    }
  }

  async function loadOne(id: number) {
    const [question] = await loadQuestions(db, [id]);
    if (!question) throw ApiError.notFound();
    return question;
  }

  return {
    async subjects(userId: number) {
      const scope = await requireSchool(db, userId);
      return db
        .select({ id: subjects.id, name: subjects.name })
        .from(subjects)
        .where(eq(subjects.orgId, scope.orgId))
        .orderBy(asc(subjects.sort), asc(subjects.id));
    },

    async tree(userId: number, subjectId: number, kind: 'chapters' | 'knowledgePoints'): Promise<TreeNode[]> {
      const scope = await requireSchool(db, userId);
      const subject = await requireSubject(db, scope, subjectId);
      return buildTree(await visibleNodes(db, kind === 'chapters' ? chapters : knowledgePoints, scope, subject));
    },

    async list(userId: number, query: z.output<typeof questionQuerySchema>): Promise<Paged<Question>> {
      const scope = await requireSchool(db, userId);
      const subject = await requireSubject(db, scope, query.subjectId);
      const filters: (SQL | undefined)[] = [await visibleQuestionsOf(db, scope, subject)];
      if (query.scope === 'shared') filters.push(isNull(questions.orgId));
      if (query.scope === 'own') filters.push(eq(questions.orgId, scope.orgId));
      if (query.type) filters.push(eq(questions.type, query.type));
      if (query.difficulty) filters.push(eq(questions.difficulty, query.difficulty));
      if (query.keyword) filters.push(ilike(questions.stem, `%${escapeLike(query.keyword)}%`));
      if (query.chapterId !== undefined) {
        const nodes = await visibleNodes(db, chapters, scope, subject);
        if (!nodes.some((n) => n.id === query.chapterId)) throw ApiError.badRequest('章节不属于该学科');
        const ids = descendantIds(nodes, query.chapterId);
        filters.push(
          inArray(
            questions.id,
            db.select({ id: questionChapters.questionId }).from(questionChapters).where(inArray(questionChapters.chapterId, ids)),
          ),
        );
      }
      if (query.knowledgePointId !== undefined) {
        const nodes = await visibleNodes(db, knowledgePoints, scope, subject);
        if (!nodes.some((n) => n.id === query.knowledgePointId)) throw ApiError.badRequest('知识点不属于该学科');
        const ids = descendantIds(nodes, query.knowledgePointId);
        filters.push(
          inArray(
            questions.id,
            db
              .select({ id: questionKnowledgePoints.questionId })
              .from(questionKnowledgePoints)
              .where(inArray(questionKnowledgePoints.knowledgePointId, ids)),
          ),
        );
      }
      // The school's own questions first, then the shared bank, each in the order they were added.
      const order = [sql`${questions.orgId} nulls last`, asc(questions.id)];
      const actor = await loadActor(db, userId, scope.orgId);
      return pageOf(db, questions, questions.id, and(...filters), order, query, async (ids) => {
        const [rows, authors] = await Promise.all([
          loadQuestions(db, ids),
          ids.length === 0
            ? []
            : db.select({ id: questions.id, createdBy: questions.createdBy }).from(questions).where(inArray(questions.id, ids)),
        ]);
        const authorOf = new Map(authors.map((row) => [row.id, row.createdBy]));
        // 本校题 its author or an admin may change (the same rule as requireOwnQuestion); the shared bank nobody.
        return rows.map((question) => {
          const createdBy = authorOf.get(question.id) ?? null;
          const canEdit = !question.shared && (createdBy === userId || can(actor, { kind: 'owned.edit', ownerId: createdBy }));
          return { ...question, canEdit };
        });
      });
    },

    async create(userId: number, raw: QuestionInputData): Promise<Question> {
      const scope = await requireSchool(db, userId);
      const { subject, chapterIds, pointIds } = await checkedInput(scope, raw);
      const id = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(questions)
          .values({
            orgId: scope.orgId,
            subjectId: subject.id,
            type: raw.type,
            stem: raw.stem,
            options: raw.options,
            answer: raw.answer,
            analysis: raw.analysis,
            difficulty: raw.difficulty,
            source: raw.source,
            createdBy: userId,
          })
          .returning({ id: questions.id });
        await writeLinks(tx as unknown as Db, row!.id, chapterIds, pointIds);
        return row!.id;
      });
      return loadOne(id);
    },

    async update(userId: number, id: number, raw: QuestionInputData): Promise<Question> {
      const scope = await requireSchool(db, userId);
      await requireOwnQuestion(scope, id);
      const { subject, chapterIds, pointIds } = await checkedInput(scope, raw);
      await db.transaction(async (tx) => {
        await tx
          .update(questions)
          .set({
            subjectId: subject.id,
            type: raw.type,
            stem: raw.stem,
            options: raw.options,
            answer: raw.answer,
            analysis: raw.analysis,
            difficulty: raw.difficulty,
            source: raw.source,
          })
          .where(eq(questions.id, id));
        await writeLinks(tx as unknown as Db, id, chapterIds, pointIds);
      });
      return loadOne(id);
    },

    async remove(userId: number, id: number): Promise<null> {
      const scope = await requireSchool(db, userId);
      await requireOwnQuestion(scope, id);
      const [used] = await db.select({ value: count() }).from(paperQuestions).where(eq(paperQuestions.questionId, id));
      if ((used?.value ?? 0) > 0) throw ApiError.badRequest('试题已被试卷使用，不能删除');
      await db.delete(questions).where(eq(questions.id, id));
      return null;
    },
  };
}
