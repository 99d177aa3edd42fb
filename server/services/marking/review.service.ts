/**
 * The review queue (识别异常处理) of a homework: listing its items and resolving one. A resolution is
 * recorded on the item (never raised again for the page) and the page is settled again, which re-runs
 * its scoring; a page whose homework changed is read again by the queue. Which action fits which kind:
 * - assignStudent: unreadable QR or fiducials, unknown student (page needed on a multi-page sheet);
 * - setAnswer: multiple marks, low confidence (the labels the teacher read);
 * - accept: low confidence / multiple marks (keep the reading), another homework (move the page to the
 *   homework its QR names), duplicate (this page replaces the counted one), missing page (score its
 *   questions 0), blank page (ignore it);
 * - discard: any page-level problem (the page leaves scores).
 * A student left with no page of the homework (one discarded, moved, or handed to another student) has
 * their open missing-page items withdrawn (withdrawMissingPages): who handed nothing in is absent, not
 * short of pages.
 */
import { and, asc, desc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  MARKING_MESSAGES,
  type PageReadingView,
  REVIEW_ACTIONS_BY_KIND,
  type ReviewBulkResult,
  type reviewBulkResolutionSchema,
  type ReviewItem,
  type ReviewResolution,
} from '../../../src/shared/contract/marking';
import type { RecognitionProblemKind } from '../../../src/shared/contract/recognition';
import type { Db } from '../../db/client';
import { answers, homework, markingTasks, pageRecognitions, reviewItems, scanPages, students } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { requireSchool } from '../papers/school-scope';
import { assertWorksOn, loadActor } from '../org/permissions';
import { lockAnswers, rescoreAnswers } from './answer-scoring';
import { type HomeworkContext, type MarkingContextLoader, pageQuestionNos, sheetOfStudent } from './marking-context';
import type { ProgressNotifier } from './marking-progress';
import { reviewItemsOf } from './review-scope';
import { PAGE_PROBLEM_KINDS, QUESTION_PROBLEM_KINDS, settlePage, unapplyPage, withdrawMissingPages } from './page-settlement';

export const REVIEW_LIST_LIMIT = 1000;

export const REVIEW_MESSAGES = {
  conflict: 409,
  cannotAssign: '该异常不能通过指定学生处理',
  cannotSetAnswer: '该异常不能通过更正填涂处理',
  cannotAccept: '请指定学生或作废此页',
  cannotDiscardQuestion: '请确认或更正该题的填涂',
  cannotDiscardMissing: '缺页请补扫，或确认按缺页处理',
  unknownHomework: '无法确定该页所属的作业',
  unknownStudent: '学生不存在',
  pageRequired: '请选择答题卡页码',
  pageOutOfRange: '页码超出答题卡页数',
  questionMismatch: '题号与该异常不符',
  notOurHomework: '该答题卡不属于本校的作业，只能作废',
  singleLabel: '单选题和判断题只能选择一个选项',
} as const;

type ItemRow = typeof reviewItems.$inferSelect;
type Action = ReviewResolution['action'];

/**
 * Whether resolving an item this way takes its page out of the scores (its answers, and the marks given
 * to them, go): every discard, a blank page ignored, a sheet moved to another homework. A duplicate's
 * re-scan takes over the answers of the page it replaces, so its accept keeps every mark.
 */
export function takesPageOut(kind: RecognitionProblemKind, action: Action): boolean {
  if (action === 'discard') return true;
  return action === 'accept' && (kind === 'blankPage' || kind === 'otherHomework');
}

function optionLabelsOf(context: HomeworkContext, studentId: number | null, questionNo: number): string[] {
  for (const page of sheetOfStudent(context, studentId).template?.pages ?? []) {
    const found = page.objective.find((o) => o.questionNo === questionNo);
    if (found) return found.options.map((option) => option.label);
  }
  return [];
}

export type ReviewService = ReturnType<typeof createReviewService>;

export function createReviewService(deps: {
  db: Db;
  contexts: MarkingContextLoader;
  notifier: ProgressNotifier;
  /** A page was handed back to the recognition queue. */
  requeued: () => void;
}) {
  const { db, contexts, notifier } = deps;

  async function describe(rows: ItemRow[], listedUnder: number | null): Promise<ReviewItem[]> {
    if (rows.length === 0) return [];
    const recIds = [...new Set(rows.map((row) => row.recognitionId))];
    const studentIds = [...new Set(rows.flatMap((row) => (row.studentId === null ? [] : [row.studentId])))];
    const [recs, people] = await Promise.all([
      db
        .select({
          id: pageRecognitions.id,
          imageId: pageRecognitions.imageId,
          homeworkId: pageRecognitions.homeworkId,
          orgId: pageRecognitions.orgId,
          qrHomeworkId: sql<number | null>`(${pageRecognitions.reading} -> 'qr' ->> 'homeworkId')::int`,
        })
        .from(pageRecognitions)
        .where(inArray(pageRecognitions.id, recIds)),
      studentIds.length === 0
        ? Promise.resolve([])
        : db
            .select({ id: students.id, name: students.name, code: students.code })
            .from(students)
            .where(inArray(students.id, studentIds)),
    ]);
    // 确认 of a sheet of another homework moves it there: only when that homework is one of this school's.
    const qrTargets = [
      ...new Set(
        rows.flatMap((row) => {
          const rec = recs.find((r) => r.id === row.recognitionId);
          return row.kind === 'otherHomework' && rec?.qrHomeworkId ? [rec.qrHomeworkId] : [];
        }),
      ),
    ];
    const movable = new Set(
      qrTargets.length === 0
        ? []
        : (
            await db
              .select({ id: homework.id })
              .from(homework)
              .where(and(inArray(homework.id, qrTargets), eq(homework.orgId, rows[0]!.orgId)))
          ).map((row) => row.id),
    );
    const actionsOf = (row: ItemRow, qrHomeworkId: number | null): Action[] => {
      if (row.status !== 'open') return [];
      // A bubble correction needs the reading it corrects.
      const actions = REVIEW_ACTIONS_BY_KIND[row.kind as RecognitionProblemKind].filter(
        (action) => action !== 'setAnswer' || row.reading !== null,
      );
      if (row.kind === 'otherHomework' && (qrHomeworkId === null || !movable.has(qrHomeworkId))) {
        return actions.filter((action) => action !== 'accept');
      }
      return actions;
    };
    return rows.flatMap((row) => {
      const rec = recs.find((r) => r.id === row.recognitionId);
      const homeworkId = row.homeworkId ?? listedUnder ?? rec?.homeworkId ?? null;
      if (!rec || homeworkId === null) return [];
      return [
        {
          id: row.id,
          homeworkId,
          kind: row.kind as RecognitionProblemKind,
          status: row.status === 'resolved' ? 'resolved' : 'open',
          imageId: rec.imageId,
          page: row.pageNo,
          questionNo: row.questionNo,
          student: people.find((s) => s.id === row.studentId) ?? null,
          reading: row.reading ?? null,
          resolution: row.resolution,
          createdAt: row.createdAt.toISOString(),
          actions: actionsOf(row, rec.qrHomeworkId),
        } satisfies ReviewItem,
      ];
    });
  }

  /** The homework an item concerns: its own, or the one its "by QR" batch holds most pages of. */
  async function homeworkOfItem(item: ItemRow): Promise<number | null> {
    if (item.homeworkId !== null) return item.homeworkId;
    const [rec] = await db.select().from(pageRecognitions).where(eq(pageRecognitions.id, item.recognitionId));
    if (!rec) return null;
    if (rec.homeworkId !== null) return rec.homeworkId;
    const [dominant] = await db
      .select({ homeworkId: pageRecognitions.homeworkId, pages: sql<number>`count(*)`.mapWith(Number) })
      .from(pageRecognitions)
      .where(and(eq(pageRecognitions.batchId, rec.batchId), sql`${pageRecognitions.homeworkId} is not null`))
      .groupBy(pageRecognitions.homeworkId)
      .orderBy(desc(sql`count(*)`), asc(pageRecognitions.homeworkId))
      .limit(1);
    return dominant?.homeworkId ?? null;
  }

  /** Locks the item inside the transaction and checks it is still open. */
  async function lockOpen(tx: Db, itemId: number): Promise<ItemRow> {
    const [row] = await tx.select().from(reviewItems).where(eq(reviewItems.id, itemId)).for('update');
    if (!row) throw ApiError.notFound();
    if (row.status !== 'open') throw new ApiError(REVIEW_MESSAGES.conflict, MARKING_MESSAGES.alreadyResolved);
    return row;
  }

  async function markResolved(tx: Db, itemId: number, userId: number, resolution: string, answerLabels?: string[]) {
    await tx
      .update(reviewItems)
      .set({ status: 'resolved', resolution, resolvedBy: userId, resolvedAt: sql`now()`, answerLabels: answerLabels ?? null })
      .where(eq(reviewItems.id, itemId));
  }

  /** Reads the page's recognition inside the transaction, locked: decisions never rest on a stale copy. */
  async function lockPage(tx: Db, recognitionId: number) {
    const [row] = await tx.select().from(pageRecognitions).where(eq(pageRecognitions.id, recognitionId)).for('update');
    if (!row) throw ApiError.notFound();
    return row;
  }

  /**
   * Hands the page back to the queue to be read with its (new) homework's template. Until then it is
   * nobody's page: its student may be left with none (withdrawMissingPages; raised again if it returns).
   */
  async function requeue(tx: Db, rec: typeof pageRecognitions.$inferSelect) {
    if (rec.applied) await unapplyPage(tx, rec.id);
    await tx.update(pageRecognitions).set({ attempts: 0 }).where(eq(pageRecognitions.id, rec.id));
    await tx.update(scanPages).set({ status: 'stored' }).where(eq(scanPages.id, rec.scanPageId));
    await withdrawMissingPages(tx, rec.homeworkId, rec.studentId);
  }

  async function discardPage(tx: Db, rec: typeof pageRecognitions.$inferSelect, userId: number, resolution: string) {
    await unapplyPage(tx, rec.id);
    await tx.update(scanPages).set({ status: 'discarded' }).where(eq(scanPages.id, rec.scanPageId));
    await tx
      .update(reviewItems)
      .set({ status: 'resolved', resolution, resolvedBy: userId, resolvedAt: sql`now()` })
      .where(and(eq(reviewItems.recognitionId, rec.id), eq(reviewItems.status, 'open'), ne(reviewItems.kind, 'missingPage')));
    // A student whose last page this was handed nothing in: their missing pages are no longer asked about.
    await withdrawMissingPages(tx, rec.homeworkId, rec.studentId);
  }

  const service = {
    async list(userId: number, homeworkId: number, status: 'open' | 'resolved'): Promise<ReviewItem[]> {
      const scope = await requireSchool(db, userId);
      await contexts.require(scope.orgId, homeworkId);
      const rows = await db
        .select()
        .from(reviewItems)
        .where(and(eq(reviewItems.orgId, scope.orgId), eq(reviewItems.status, status), reviewItemsOf(homeworkId)))
        .orderBy(status === 'open' ? asc(reviewItems.id) : desc(reviewItems.resolvedAt), asc(reviewItems.id))
        .limit(REVIEW_LIST_LIMIT);
      return describe(rows, homeworkId);
    },

    async resolve(userId: number, itemId: number, input: ReviewResolution): Promise<ReviewItem> {
      const scope = await loadActor(db, userId);
      const [item] = await db
        .select()
        .from(reviewItems)
        .where(and(eq(reviewItems.id, itemId), eq(reviewItems.orgId, scope.orgId)));
      if (!item) throw ApiError.notFound();
      if (item.status !== 'open') throw new ApiError(REVIEW_MESSAGES.conflict, MARKING_MESSAGES.alreadyResolved);
      // Read here for what is decided before the transaction (contexts: PGlite has one connection); each
      // transaction reads the page again, locked, and decides on that.
      const [rec] = await db.select().from(pageRecognitions).where(eq(pageRecognitions.id, item.recognitionId));
      if (!rec) throw ApiError.notFound();
      const kind = item.kind as RecognitionProblemKind;
      const listedUnder = await homeworkOfItem(item);
      // Deciding a page's exception: whoever works on the homework it is listed under.
      if (listedUnder !== null) await assertWorksOn(db, scope, (await contexts.require(scope.orgId, listedUnder)).homework);
      const touched = new Set<number>([listedUnder, rec.homeworkId].filter((id): id is number => id !== null));
      let requeued = false;

      if (input.action === 'assignStudent') {
        if (!['qrUnreadable', 'unknownStudent', 'fiducialsNotFound'].includes(kind)) {
          throw ApiError.badRequest(REVIEW_MESSAGES.cannotAssign);
        }
        if (listedUnder === null) throw ApiError.badRequest(REVIEW_MESSAGES.unknownHomework);
        const context = await contexts.require(scope.orgId, listedUnder);
        const [student] = await db
          .select({ id: students.id, name: students.name })
          .from(students)
          .where(and(eq(students.id, input.studentId), eq(students.orgId, scope.orgId)));
        if (!student) throw ApiError.badRequest(REVIEW_MESSAGES.unknownStudent);
        const pageCount = sheetOfStudent(context, student.id).template?.pages.length ?? 0;
        const pageNo = input.page ?? rec.forcedPageNo ?? rec.reading?.qr?.page ?? (pageCount === 1 ? 1 : null);
        if (pageNo === null) throw ApiError.badRequest(REVIEW_MESSAGES.pageRequired);
        if (pageNo > pageCount) throw ApiError.badRequest(REVIEW_MESSAGES.pageOutOfRange);
        await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          await lockOpen(tx, item.id);
          const page = await lockPage(tx, rec.id);
          await tx
            .update(pageRecognitions)
            .set({ forcedHomeworkId: listedUnder, forcedStudentId: student.id, forcedPageNo: pageNo })
            .where(eq(pageRecognitions.id, rec.id));
          await markResolved(tx, item.id, userId, `已指定学生：${student.name}（第 ${pageNo} 页）`);
          await tx
            .update(reviewItems)
            .set({ homeworkId: listedUnder, studentId: student.id, pageNo })
            .where(eq(reviewItems.id, item.id));
          // Read with another homework's template, or not read at all: read it again with the right one.
          if (page.templateHomeworkId !== listedUnder || !page.reading) {
            await requeue(tx, page);
            requeued = true;
          } else {
            await settlePage(tx, rec.id, context);
            // It may have been another student's page (a misread QR).
            await withdrawMissingPages(tx, page.homeworkId, page.studentId);
          }
        });
      } else if (input.action === 'setAnswer') {
        if (!QUESTION_PROBLEM_KINDS.has(kind)) throw ApiError.badRequest(REVIEW_MESSAGES.cannotSetAnswer);
        if (input.questionNo !== item.questionNo) throw ApiError.badRequest(REVIEW_MESSAGES.questionMismatch);
        if (listedUnder === null) throw ApiError.badRequest(REVIEW_MESSAGES.unknownHomework);
        const context = await contexts.require(scope.orgId, listedUnder);
        const allowed = optionLabelsOf(context, item.studentId, input.questionNo);
        const labels = [...new Set(input.labels.map((label) => label.trim().toUpperCase()))];
        const unknown = labels.filter((label) => !allowed.includes(label));
        if (unknown.length > 0) throw ApiError.badRequest(`选项不存在：${unknown.join('、')}`);
        const type = sheetOfStudent(context, item.studentId).questions.get(input.questionNo)?.type;
        if ((type === 'single' || type === 'judge') && labels.length > 1) throw ApiError.badRequest(REVIEW_MESSAGES.singleLabel);
        const ordered = allowed.filter((label) => labels.includes(label));
        await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          await lockOpen(tx, item.id);
          await lockPage(tx, rec.id);
          await markResolved(tx, item.id, userId, `已更正为：${ordered.join('') || '未作答'}`, ordered);
          await settlePage(tx, rec.id, context);
        });
      } else if (input.action === 'accept') {
        // Contexts are loaded before the transaction: PGlite has one connection, which the transaction holds.
        const context = listedUnder === null ? null : await contexts.forHomework(scope.orgId, listedUnder);
        const qrHomework = rec.reading?.qr?.homeworkId;
        const qrContext =
          (kind === 'otherHomework' || kind === 'outOfScope') && qrHomework !== undefined
            ? await contexts.forHomework(scope.orgId, qrHomework)
            : null;
        await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          await lockOpen(tx, item.id);
          const page = await lockPage(tx, rec.id);
          if (QUESTION_PROBLEM_KINDS.has(kind)) {
            await markResolved(tx, item.id, userId, '已确认识别结果');
            await settlePage(tx, rec.id, context);
          } else if (kind === 'blankPage') {
            await markResolved(tx, item.id, userId, '空白页，已忽略');
            await discardPage(tx, page, userId, '空白页，已忽略');
          } else if (kind === 'otherHomework' || kind === 'outOfScope') {
            // outOfScope is listed under the QR's homework: its teachers (checked above) let it count there.
            if (!qrContext) throw ApiError.badRequest(REVIEW_MESSAGES.notOurHomework);
            const target = qrContext.homework;
            await tx.update(pageRecognitions).set({ forcedHomeworkId: target.id }).where(eq(pageRecognitions.id, rec.id));
            await markResolved(tx, item.id, userId, `已移至作业：${target.title}`);
            touched.add(target.id);
            if (page.templateHomeworkId !== target.id) {
              await requeue(tx, page);
              requeued = true;
            } else {
              await settlePage(tx, rec.id, qrContext);
              await withdrawMissingPages(tx, page.homeworkId, page.studentId);
            }
          } else if (kind === 'duplicatePage') {
            const counted = await tx
              .select()
              .from(pageRecognitions)
              .where(
                and(
                  eq(pageRecognitions.homeworkId, page.homeworkId ?? -1),
                  eq(pageRecognitions.studentId, page.studentId ?? -1),
                  eq(pageRecognitions.pageNo, page.pageNo ?? -1),
                  eq(pageRecognitions.applied, true),
                  ne(pageRecognitions.id, rec.id),
                ),
              );
            // The re-scan is the same student's same page: it takes over the answers of the page it
            // replaces (same rows, so their marking tasks and marked scores stay), and settling it
            // rewrites what it read into them. A person's marks are never thrown away here.
            for (const other of counted) {
              await tx.update(answers).set({ recognitionId: rec.id }).where(eq(answers.recognitionId, other.id));
              await discardPage(tx, other, userId, '已被重新扫描的页替换');
            }
            await markResolved(tx, item.id, userId, '已用此页替换先前扫描的页（已保留阅卷给分）');
            await settlePage(tx, rec.id, context);
          } else if (kind === 'missingPage') {
            if (!context || listedUnder === null || item.studentId === null || item.pageNo === null) {
              throw ApiError.badRequest(REVIEW_MESSAGES.cannotAccept);
            }
            const sheet = sheetOfStudent(context, item.studentId);
            const { objective, regions } = sheet.template
              ? pageQuestionNos(sheet.template, item.pageNo)
              : { objective: [], regions: [] };
            const nos = [...objective, ...regions].filter((no) => sheet.questions.has(no));
            const created =
              nos.length === 0
                ? []
                : await tx
                    .insert(answers)
                    .values(
                      nos.map((no) => ({
                        orgId: scope.orgId,
                        homeworkId: listedUnder,
                        studentId: item.studentId!,
                        questionNo: no,
                        missing: true,
                      })),
                    )
                    .onConflictDoNothing()
                    .returning({ id: answers.id });
            await markResolved(tx, item.id, userId, '已按缺页处理（该页各题记 0 分）');
            const ids = created.map((row) => row.id);
            await lockAnswers(tx, ids);
            await rescoreAnswers(tx, context, ids);
          } else {
            throw ApiError.badRequest(REVIEW_MESSAGES.cannotAccept);
          }
        });
      } else {
        if (QUESTION_PROBLEM_KINDS.has(kind)) throw ApiError.badRequest(REVIEW_MESSAGES.cannotDiscardQuestion);
        if (kind === 'missingPage') throw ApiError.badRequest(REVIEW_MESSAGES.cannotDiscardMissing);
        if (!PAGE_PROBLEM_KINDS.has(kind)) throw ApiError.badRequest(REVIEW_MESSAGES.cannotDiscardQuestion);
        await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          await lockOpen(tx, item.id);
          const page = await lockPage(tx, rec.id);
          await markResolved(tx, item.id, userId, '已作废此页');
          await discardPage(tx, page, userId, '已作废此页');
        });
      }

      if (requeued) deps.requeued();
      for (const homeworkId of touched) await notifier.homeworkChanged(scope.orgId, homeworkId);
      const [updated] = await db.select().from(reviewItems).where(eq(reviewItems.id, item.id));
      const [described] = await describe([updated!], listedUnder);
      return described!;
    },

    /**
     * 批量确认 / 批量作废: resolves each item on its own, as `resolve` would, and reports each. An item the
     * action does not fit (REVIEW_ACTIONS_BY_KIND and what the server offers it now) is skipped; one
     * resolved meanwhile (another teacher, or a discard of the same page earlier in this request) is
     * reported as it was resolved. Marks that would leave the scores are counted first, and applying
     * never loses more than the teacher confirmed (`marksLost`).
     */
    async bulk(userId: number, input: z.output<typeof reviewBulkResolutionSchema>): Promise<ReviewBulkResult> {
      const scope = await requireSchool(db, userId);
      const ids = [...new Set(input.itemIds)];
      const rows = await db
        .select()
        .from(reviewItems)
        .where(and(eq(reviewItems.orgId, scope.orgId), inArray(reviewItems.id, ids)));
      const described = new Map((await describe(rows, null)).map((item) => [item.id, item]));
      const fits = (row: ItemRow) => described.get(row.id)?.actions?.includes(input.action) ?? false;
      const leaving = [
        ...new Set(
          rows
            .filter((row) => fits(row) && takesPageOut(row.kind as RecognitionProblemKind, input.action))
            .map((row) => row.recognitionId),
        ),
      ];
      const [marks] =
        leaving.length === 0
          ? [{ value: 0 }]
          : await db
              .select({ value: sql<number>`count(*)`.mapWith(Number) })
              .from(markingTasks)
              .innerJoin(answers, eq(answers.id, markingTasks.answerId))
              .where(and(inArray(answers.recognitionId, leaving), isNotNull(markingTasks.score)));
      const marksLost = marks?.value ?? 0;
      if (!input.dryRun && marksLost > input.marksLost) {
        throw new ApiError(REVIEW_MESSAGES.conflict, MARKING_MESSAGES.bulkMarksLost(marksLost));
      }

      const results: ReviewBulkResult['results'] = [];
      for (const itemId of ids) {
        const row = rows.find((r) => r.id === itemId);
        if (!row) {
          results.push({ itemId, outcome: 'failed', message: '该异常不存在' });
        } else if (row.status !== 'open') {
          results.push({ itemId, outcome: 'skipped', message: MARKING_MESSAGES.alreadyResolved });
        } else if (!fits(row)) {
          results.push({ itemId, outcome: 'skipped', message: MARKING_MESSAGES.bulkNotApplicable });
        } else if (input.dryRun) {
          results.push({ itemId, outcome: 'ready', message: null });
        } else {
          try {
            const resolved = await service.resolve(userId, itemId, { action: input.action });
            results.push({ itemId, outcome: 'resolved', message: resolved.resolution });
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const [now] = await db.select().from(reviewItems).where(eq(reviewItems.id, itemId));
            results.push(
              now?.status === 'resolved'
                ? { itemId, outcome: 'resolved', message: now.resolution }
                : { itemId, outcome: 'failed', message: error.message },
            );
          }
        }
      }
      return { marksLost, results };
    },

    async pageReading(userId: number, imageId: string): Promise<PageReadingView> {
      const scope = await requireSchool(db, userId);
      const [row] = await db
        .select({
          status: scanPages.status,
          batchHomeworkId: scanPages.homeworkId,
          homeworkId: pageRecognitions.homeworkId,
          reading: pageRecognitions.reading,
        })
        .from(scanPages)
        .leftJoin(pageRecognitions, eq(pageRecognitions.scanPageId, scanPages.id))
        .where(and(eq(scanPages.imageId, imageId), eq(scanPages.orgId, scope.orgId)));
      if (!row) throw ApiError.notFound();
      return {
        imageId,
        homeworkId: row.homeworkId ?? row.batchHomeworkId,
        status: row.status,
        reading: row.reading ?? null,
      };
    },
  };
  return service;
}
