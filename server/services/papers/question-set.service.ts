/**
 * 题目合集 (question sets) of a school: a teacher gathers questions of one subject (the shared bank's or
 * the school's own) into a named set, shares it to 校本资料, and colleagues read and copy it. Who may do
 * what is the permission module's answer (`owned.edit`): the owner and the school's admins change a set;
 * a colleague's unshared set is not there for other teachers (404), like anything of another school.
 * Owns no paper: composing from a set happens in the client's 试题篮.
 */
import { and, asc, count, desc, eq, ilike, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MAX_SET_NAME,
  type QuestionSetDetail,
  type QuestionSetPage,
  type QuestionSetSummary,
  type questionSetCreateSchema,
  type questionSetInputSchema,
  type questionSetListQuerySchema,
} from '../../../src/shared/contract/question-sets';
import type { Db } from '../../db/client';
import { pageOf } from './paged';
import { shareToLibrary, unshareFromLibrary } from './library-sharing';
import { chapters, classes, knowledgePoints, questions, questionSetItems, questionSets, subjects, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { type Actor, can, loadActor } from '../org/permissions';
import {
  escapeLike,
  loadQuestions,
  visibleChapterSubtree,
  visibleNodes,
  visibleQuestionsOf,
  visibleSubtree,
} from './question-bank.service';
import { requireSchool, requireSchoolYear, requireSubject, type SchoolScope } from './school-scope';

type InputData = z.output<typeof questionSetInputSchema>;
type CreateData = z.output<typeof questionSetCreateSchema>;
type ListData = z.output<typeof questionSetListQuerySchema>;
type SetRow = typeof questionSets.$inferSelect;

export type QuestionSetService = ReturnType<typeof createQuestionSetService>;

export function createQuestionSetService({ db, now = () => new Date() }: { db: Db; now?: () => Date }) {
  const mayEdit = (actor: Actor, set: Pick<SetRow, 'createdBy'>) =>
    set.createdBy === actor.userId || can(actor, { kind: 'owned.edit', ownerId: set.createdBy });

  /** The caller's school, their permissions there, and the set if they may see it (else 404). */
  async function readable(userId: number, id: number) {
    const scope = await requireSchool(db, userId);
    const actor = await loadActor(db, userId, scope.orgId);
    const [set] = await db
      .select()
      .from(questionSets)
      .where(and(eq(questionSets.id, id), eq(questionSets.orgId, scope.orgId)));
    // An unshared set is its owner's draft: colleagues do not find it; admins (who may change it) do.
    if (!set || (set.sharedAt === null && !mayEdit(actor, set))) throw ApiError.notFound();
    return { scope, actor, set };
  }

  /** A set the caller may change: 404 when they cannot see it, 403 when they only read it. */
  async function editable(userId: number, id: number) {
    const found = await readable(userId, id);
    if (!mayEdit(found.actor, found.set)) throw ApiError.forbidden();
    return found;
  }

  /** Subject, school year, chapter and questions of a payload, checked against the school (400 otherwise). */
  async function checkInput(scope: SchoolScope, input: InputData) {
    const subject = await requireSubject(db, scope, input.subjectId).catch(() => {
      throw ApiError.badRequest('学科不存在');
    });
    await requireSchoolYear(db, scope, input.schoolYearId);
    if (input.chapterId !== null) {
      const nodes = await visibleNodes(db, chapters, scope, subject);
      if (!nodes.some((n) => n.id === input.chapterId)) throw ApiError.badRequest('章节不存在或不属于该学科');
    }
    if (input.knowledgePointId !== null) {
      const nodes = await visibleNodes(db, knowledgePoints, scope, subject);
      if (!nodes.some((n) => n.id === input.knowledgePointId)) throw ApiError.badRequest('知识点不存在或不属于该学科');
    }
    const visible = await db
      .select({ id: questions.id })
      .from(questions)
      .where(and(inArray(questions.id, input.questionIds), await visibleQuestionsOf(db, scope, subject)));
    if (visible.length !== input.questionIds.length) {
      const known = new Set(visible.map((row) => row.id));
      const missing = input.questionIds.filter((id) => !known.has(id));
      throw ApiError.badRequest(`试题不存在或不属于该学科：${missing.slice(0, 5).join('、')}`);
    }
  }

  async function writeItems(tx: Db, setId: number, questionIds: number[]) {
    await tx.delete(questionSetItems).where(eq(questionSetItems.setId, setId));
    await tx.insert(questionSetItems).values(questionIds.map((questionId, sort) => ({ setId, questionId, sort })));
  }

  async function itemIds(setId: number) {
    const rows = await db
      .select({ id: questionSetItems.questionId })
      .from(questionSetItems)
      .where(eq(questionSetItems.setId, setId))
      .orderBy(asc(questionSetItems.sort));
    return rows.map((row) => row.id);
  }

  /** Rows in the given order, with subject, school year, chapter, author and question count. */
  async function summarize(actor: Actor, ids: number[]): Promise<QuestionSetSummary[]> {
    if (ids.length === 0) return [];
    const [rows, counts] = await Promise.all([
      db
        .select({
          set: questionSets,
          subjectName: subjects.name,
          schoolYearName: classes.name,
          chapterName: chapters.name,
          pointName: knowledgePoints.name,
          authorName: users.nickname,
        })
        .from(questionSets)
        .innerJoin(subjects, eq(subjects.id, questionSets.subjectId))
        .innerJoin(classes, eq(classes.id, questionSets.schoolYearId))
        .leftJoin(chapters, eq(chapters.id, questionSets.chapterId))
        .leftJoin(knowledgePoints, eq(knowledgePoints.id, questionSets.knowledgePointId))
        .leftJoin(users, eq(users.id, questionSets.createdBy))
        .where(inArray(questionSets.id, ids)),
      db
        .select({ setId: questionSetItems.setId, value: count() })
        .from(questionSetItems)
        .where(inArray(questionSetItems.setId, ids))
        .groupBy(questionSetItems.setId),
    ]);
    return ids.flatMap((id) => {
      const row = rows.find((r) => r.set.id === id);
      if (!row) return [];
      const { set } = row;
      return [
        {
          id,
          name: set.name,
          description: set.description,
          subject: { id: set.subjectId, name: row.subjectName },
          schoolYear: { id: set.schoolYearId, name: row.schoolYearName },
          chapter: set.chapterId === null || row.chapterName === null ? null : { id: set.chapterId, name: row.chapterName },
          knowledgePoint:
            set.knowledgePointId === null || row.pointName === null ? null : { id: set.knowledgePointId, name: row.pointName },
          questionCount: counts.find((c) => c.setId === id)?.value ?? 0,
          createdBy: set.createdBy === null || row.authorName === null ? null : { id: set.createdBy, name: row.authorName },
          mine: set.createdBy === actor.userId,
          canEdit: mayEdit(actor, set),
          createdAt: set.createdAt.toISOString(),
          updatedAt: set.updatedAt.toISOString(),
          sharedAt: set.sharedAt?.toISOString() ?? null,
        },
      ];
    });
  }

  async function detail(actor: Actor, id: number): Promise<QuestionSetDetail> {
    const [[summary], ids] = await Promise.all([summarize(actor, [id]), itemIds(id)]);
    if (!summary) throw ApiError.notFound();
    return { ...summary, questions: await loadQuestions(db, ids) };
  }

  /** The chapter and its subchapters, among those the school reads for the chapter's subject. */
  return {
    /** 校本资料's shared sets (newest share first), or the caller's own (newest change first). */
    async list(userId: number, query: ListData): Promise<QuestionSetPage> {
      const scope = await requireSchool(db, userId);
      const actor = await loadActor(db, userId, scope.orgId);
      const filters: SQL[] = [eq(questionSets.orgId, scope.orgId)];
      filters.push(query.scope === 'mine' ? eq(questionSets.createdBy, userId) : isNotNull(questionSets.sharedAt));
      if (query.keyword) {
        const like = `%${escapeLike(query.keyword)}%`;
        filters.push(or(ilike(questionSets.name, like), ilike(questionSets.description, like))!);
      }
      if (query.subjectId) filters.push(eq(questionSets.subjectId, query.subjectId));
      if (query.schoolYearId) filters.push(eq(questionSets.schoolYearId, query.schoolYearId));
      if (query.chapterId) {
        const ids = await visibleChapterSubtree(db, scope, query.chapterId);
        filters.push(ids.length > 0 ? inArray(questionSets.chapterId, ids) : sql`false`);
      }
      if (query.knowledgePointId) {
        const ids = await visibleSubtree(db, scope, knowledgePoints, query.knowledgePointId);
        filters.push(ids.length > 0 ? inArray(questionSets.knowledgePointId, ids) : sql`false`);
      }
      const where = and(...filters);
      const order =
        query.scope === 'mine'
          ? [desc(questionSets.updatedAt), desc(questionSets.id)]
          : [desc(questionSets.sharedAt), desc(questionSets.id)];
      return pageOf(db, questionSets, questionSets.id, where, order, query, (ids) => summarize(actor, ids));
    },

    async detail(userId: number, id: number): Promise<QuestionSetDetail> {
      const { actor } = await readable(userId, id);
      return detail(actor, id);
    },

    async create(userId: number, input: CreateData): Promise<QuestionSetDetail> {
      const scope = await requireSchool(db, userId);
      await checkInput(scope, input);
      const id = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .insert(questionSets)
          .values({
            orgId: scope.orgId,
            subjectId: input.subjectId,
            schoolYearId: input.schoolYearId,
            chapterId: input.chapterId,
            knowledgePointId: input.knowledgePointId,
            name: input.name,
            description: input.description,
            createdBy: userId,
            sharedAt: input.shared ? now() : null,
          })
          .returning({ id: questionSets.id });
        await writeItems(tx, row!.id, input.questionIds);
        return row!.id;
      });
      return detail(await loadActor(db, userId, scope.orgId), id);
    },

    /** Renames, refiles or changes the questions of a set (the owner or an admin). */
    async update(userId: number, id: number, input: InputData): Promise<QuestionSetDetail> {
      const { scope, actor } = await editable(userId, id);
      await checkInput(scope, input);
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx
          .update(questionSets)
          .set({
            subjectId: input.subjectId,
            schoolYearId: input.schoolYearId,
            chapterId: input.chapterId,
            knowledgePointId: input.knowledgePointId,
            name: input.name,
            description: input.description,
            updatedAt: now(),
          })
          .where(eq(questionSets.id, id));
        await writeItems(tx, id, input.questionIds);
      });
      return detail(actor, id);
    },

    async remove(userId: number, id: number): Promise<null> {
      await editable(userId, id);
      await db.delete(questionSets).where(eq(questionSets.id, id));
      return null;
    },

    /** 共享到校本资料: the owner only (an admin does not publish a colleague's draft on their behalf). */
    async share(userId: number, id: number): Promise<QuestionSetSummary> {
      const { scope, actor, set } = await readable(userId, id);
      await shareToLibrary(
        scope,
        set,
        (sharedAt) => db.update(questionSets).set({ sharedAt }).where(eq(questionSets.id, id)),
        now,
      );
      const [summary] = await summarize(actor, [id]);
      return summary!;
    },

    /** 撤回 (the owner) or 移除 (an admin) a set from 校本资料; the set itself stays its owner's. */
    async unshare(userId: number, id: number): Promise<null> {
      const { scope, set } = await readable(userId, id);
      await unshareFromLibrary(db, scope, set, () =>
        db.update(questionSets).set({ sharedAt: null }).where(eq(questionSets.id, id)),
      );
      return null;
    },

    /** 复制到我的题目合集: a new, unshared set of the caller's, named 「…（副本）」. */
    async copy(userId: number, id: number): Promise<QuestionSetDetail> {
      const { scope, actor, set } = await readable(userId, id);
      const ids = await itemIds(id);
      const newId = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx
          .insert(questionSets)
          .values({
            orgId: scope.orgId,
            subjectId: set.subjectId,
            schoolYearId: set.schoolYearId,
            chapterId: set.chapterId,
            knowledgePointId: set.knowledgePointId,
            name: `${set.name.slice(0, MAX_SET_NAME - 4)}（副本）`,
            description: set.description,
            createdBy: userId,
          })
          .returning({ id: questionSets.id });
        if (ids.length > 0) await writeItems(tx, row!.id, ids);
        return row!.id;
      });
      return detail(actor, newId);
    },
  };
}
