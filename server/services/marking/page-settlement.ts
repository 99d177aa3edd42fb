/**
 * Settling a recognised page: deciding from its reading (and any reviewer's decisions) which homework,
 * sheet page and student it is, raising the review items a person must decide, and, when nothing on the
 * page blocks it, writing its answers and scoring them. Run after recognition and again after every
 * review resolution, always inside one transaction holding the page's row; the page's review items are
 * raised once per (kind, question), so a resolved problem is never raised again for the same page.
 *
 * Homework: a reviewer's choice wins; otherwise the page counts for its batch's homework, or for the
 * homework its QR names when the batch is "by QR". The template it was read with is the QR's homework's
 * when that is one of the school's (see templateHomeworkOf), so a page of another homework can be moved
 * there without reading it again.
 */
import { and, eq, inArray, isNotNull, isNull, ne, notExists, or, sql } from 'drizzle-orm';
import type { ObjectiveQuestionLayout, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import {
  LOW_CONFIDENCE,
  type ObjectiveReading,
  type PageReading,
  type RecognitionProblemKind,
  type ScanPageStatus,
} from '../../../src/shared/contract/recognition';
import type { Db } from '../../db/client';
import { answers, homework, pageRecognitions, reviewItems, scanBatches, scanPages, students } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { assertWorksOn, loadActor } from '../org/permissions';
import { lockAnswers, rescoreAnswers } from './answer-scoring';
import { type HomeworkContext, pageQuestionNos, sheetOfStudent } from './marking-context';
import { calibrateOtherPages, calibrateOwnPage, isCalibrated } from './student-sheet-calibration';

/** Problems that keep the whole page out of scores until resolved. */
export const PAGE_PROBLEM_KINDS: ReadonlySet<RecognitionProblemKind> = new Set([
  'fiducialsNotFound',
  'qrUnreadable',
  'blankPage',
  'otherHomework',
  'duplicatePage',
  'unknownStudent',
  'outOfScope',
]);
/** Problems of one objective question; the rest of the page counts. */
export const QUESTION_PROBLEM_KINDS: ReadonlySet<RecognitionProblemKind> = new Set(['multipleMarks', 'lowConfidence']);
/** Problems the engine raises about a whole page: the page counts for nothing until they are resolved. */
export const ENGINE_PAGE_KINDS: ReadonlySet<RecognitionProblemKind> = new Set(['fiducialsNotFound', 'qrUnreadable', 'blankPage']);
/**
 * Page problems that leave open whose page it is: a sheet of another homework, a blank page, a page of
 * no known student or sheet page. While one is open the page is nobody's page of the homework it waits
 * in (see studentPagesOf). The other page problems (unfound corners of a page whose QR was read, a
 * re-scan of a counted page, a scope decision) doubt how the page counts, not whose it is.
 */
export const IDENTITY_PROBLEM_KINDS: ReadonlySet<RecognitionProblemKind> = new Set([
  'otherHomework',
  'blankPage',
  'unknownStudent',
  'qrUnreadable',
]);
/** What a missing-page item says when the server withdraws it: its student has no page of the homework left. */
export const MISSING_PAGE_WITHDRAWN = '已撤销（该生已无本次作业的答题卡页）';

type Recognition = typeof pageRecognitions.$inferSelect;
type ReviewItemRow = typeof reviewItems.$inferSelect;

/** Is the QR's homework one of this school's? */
export async function qrHomeworkOfSchool(db: Db, orgId: number, qr: SheetQrPayload | null): Promise<number | null> {
  if (!qr) return null;
  const [row] = await db
    .select({ id: homework.id })
    .from(homework)
    .where(and(eq(homework.id, qr.homeworkId), eq(homework.orgId, orgId)));
  return row?.id ?? null;
}

/** May the teacher who made the scan batch work on the homework (the permission module's homework.work)? */
async function scannerWorksOn(
  tx: Db,
  batchId: number,
  orgId: number,
  target: { id: number; createdBy: number | null; paperId: number },
): Promise<boolean> {
  const [batch] = await tx.select({ createdBy: scanBatches.createdBy }).from(scanBatches).where(eq(scanBatches.id, batchId));
  if (!batch || batch.createdBy === null) return false;
  try {
    await assertWorksOn(tx, await loadActor(tx, batch.createdBy, orgId), target);
    return true;
  } catch (error) {
    if (error instanceof ApiError) return false;
    throw error;
  }
}

/** The homework whose template a page is read with. */
export function templateHomeworkOf(forced: number | null, qrHomework: number | null, batchHomework: number | null) {
  return forced ?? qrHomework ?? batchHomework;
}

/** The homework a page counts for. */
export function countingHomeworkOf(forced: number | null, qrHomework: number | null, batchHomework: number | null) {
  return forced ?? batchHomework ?? qrHomework;
}

export type SettleOutcome = { homeworkId: number | null; status: ScanPageStatus };

type Problem = {
  kind: RecognitionProblemKind;
  questionNo?: number | undefined;
  detail?: string | undefined;
  reading?: ObjectiveReading | undefined;
};

function sameProblem(item: ReviewItemRow, problem: Problem) {
  return item.kind === problem.kind && (item.questionNo ?? null) === (problem.questionNo ?? null);
}

/** Removes what an applied page wrote (its answers, and with them their tasks and scores). */
export async function unapplyPage(tx: Db, recognitionId: number): Promise<void> {
  await tx.delete(answers).where(eq(answers.recognitionId, recognitionId));
  await tx.update(pageRecognitions).set({ applied: false }).where(eq(pageRecognitions.id, recognitionId));
}

async function studentOf(tx: Db, rec: Recognition, reading: PageReading): Promise<number | null> {
  if (rec.forcedStudentId !== null) return rec.forcedStudentId;
  const code = reading.qr?.studentCode;
  if (!code) return null;
  const [row] = await tx
    .select({ id: students.id })
    .from(students)
    .where(and(eq(students.orgId, rec.orgId), eq(students.code, code)));
  return row?.id ?? null;
}

/**
 * The server-side checks of one objective question when the engine raised nothing for it. A question
 * the engine did not read at all gets an empty reading, so the reviewer can still set its answer.
 * Exported for the recognition benchmarks, which score by this very rule.
 */
export function questionProblems(reading: PageReading, layout: ObjectiveQuestionLayout, type: string | undefined): Problem[] {
  const questionNo = layout.questionNo;
  const objective = reading.objective.find((o) => o.questionNo === questionNo);
  const raised = reading.problems
    .filter((p) => p.questionNo === questionNo && QUESTION_PROBLEM_KINDS.has(p.kind))
    .map((p) => ({ kind: p.kind, questionNo, detail: p.detail, reading: objective }));
  if (raised.length > 0) return raised;
  if (!objective) {
    const empty = { questionNo, fills: layout.options.map((o) => ({ label: o.label, fill: 0 })), marked: [], confidence: 0 };
    return [{ kind: 'lowConfidence', questionNo, detail: 'question not read', reading: empty }];
  }
  if (objective.confidence < LOW_CONFIDENCE) {
    return [{ kind: 'lowConfidence', questionNo, detail: `confidence ${objective.confidence}`, reading: objective }];
  }
  if ((type === 'single' || type === 'judge') && objective.marked.length > 1) {
    return [{ kind: 'multipleMarks', questionNo, detail: 'server check', reading: objective }];
  }
  return [];
}

/**
 * Whether the server holds a question of a read page back for a person instead of scoring it, from the
 * engine's reading alone: a page-level problem of the engine blocks the whole page, otherwise the
 * question's own problems (questionProblems). `type` is the question's type in the homework. The
 * server's own page problems (another homework, a duplicate, an unknown student) block more; the
 * benchmarks, which know the sheet, need only this.
 */
export function heldBackForReview(reading: PageReading, layout: ObjectiveQuestionLayout, type: string | undefined): boolean {
  return reading.problems.some((p) => ENGINE_PAGE_KINDS.has(p.kind)) || questionProblems(reading, layout, type).length > 0;
}

/**
 * Settles one recognised page. `context` is the homework the page counts for (countingHomeworkOf), or
 * null when there is none. Returns the page's status and homework. A page that counts is calibrated
 * with the other pages of the student's sheet (student-sheet-calibration.ts): its questions held only
 * for a doubt of its own calibration, and such questions of those pages, are decided again with the
 * pages' pooled calibration (`calibrate` false: not again, for a page settled again by that).
 */
export async function settlePage(
  tx: Db,
  recognitionId: number,
  context: HomeworkContext | null,
  options: { calibrate?: boolean } = {},
): Promise<SettleOutcome> {
  const [rec] = await tx.select().from(pageRecognitions).where(eq(pageRecognitions.id, recognitionId)).for('update');
  if (!rec) throw new Error(`page recognition ${recognitionId} vanished`);
  const [page] = await tx
    .select({ status: scanPages.status, homeworkId: scanPages.homeworkId })
    .from(scanPages)
    .where(eq(scanPages.id, rec.scanPageId));
  let reading = rec.reading;
  if (!page || !reading || page.status === 'discarded') {
    return { homeworkId: rec.homeworkId, status: (page?.status ?? 'stored') as ScanPageStatus };
  }
  const homeworkId = context?.homework.id ?? null;
  const studentId = await studentOf(tx, rec, reading);
  // A student with a paper of their own (a personalised set) is read and scored against it.
  const sheet = context ? sheetOfStudent(context, studentId) : null;
  const template = sheet?.template ?? null;
  let pageNo = rec.forcedPageNo ?? reading.qr?.page ?? (template?.pages.length === 1 ? 1 : null);
  if (pageNo !== null && template && !template.pages.some((p) => p.page === pageNo)) pageNo = null;

  let items = await tx
    .select()
    .from(reviewItems)
    .where(and(eq(reviewItems.recognitionId, rec.id), ne(reviewItems.kind, 'missingPage')));
  const raise = async (problems: Problem[], listedUnder: number | null = homeworkId) => {
    const fresh = problems.filter((problem, i) => {
      const first = problems.findIndex((other) => other.kind === problem.kind && other.questionNo === problem.questionNo);
      return first === i && !items.some((item) => sameProblem(item, problem));
    });
    if (fresh.length === 0) return;
    const created = await tx
      .insert(reviewItems)
      .values(
        fresh.map((problem) => ({
          orgId: rec.orgId,
          homeworkId: problem.kind === 'otherHomework' ? listedUnder : homeworkId,
          recognitionId: rec.id,
          kind: problem.kind,
          pageNo,
          questionNo: problem.questionNo ?? null,
          studentId,
          reading: problem.reading ?? null,
          detail: problem.detail?.slice(0, 500) ?? null,
        })),
      )
      .returning();
    items = [...items, ...created];
  };
  const openPageItems = () => items.filter((item) => item.status === 'open' && PAGE_PROBLEM_KINDS.has(item.kind as never));

  const pageProblems: Problem[] = reading.problems
    .filter((p) => ENGINE_PAGE_KINDS.has(p.kind))
    .map((p) => ({ kind: p.kind, detail: p.detail }));
  if (rec.forcedHomeworkId === null && reading.qr) {
    if (page.homeworkId !== null && reading.qr.homeworkId !== page.homeworkId) {
      pageProblems.push({ kind: 'otherHomework', detail: `QR names homework ${reading.qr.homeworkId}` });
    } else if (homeworkId === null) {
      pageProblems.push({ kind: 'otherHomework', detail: `QR names homework ${reading.qr.homeworkId} of no homework here` });
    }
  }
  await raise(pageProblems, page.homeworkId);
  // A "by QR" batch: the QR's homework (of this school) counts only if the batch's scanning teacher may
  // work on it; otherwise its teachers decide, in its review list.
  if (rec.forcedHomeworkId === null && reading.qr && page.homeworkId === null && context !== null) {
    if (!(await scannerWorksOn(tx, rec.batchId, rec.orgId, context.homework))) {
      await raise([
        { kind: 'outOfScope', detail: `QR names homework ${context.homework.id} outside the scanning teacher's scope` },
      ]);
    }
  }
  if (openPageItems().length === 0) {
    if (homeworkId === null || template === null) {
      await raise([{ kind: 'qrUnreadable', detail: homeworkId === null ? 'homework unknown' : 'no answer-sheet template' }]);
    } else if (studentId === null) {
      const code = reading.qr?.studentCode;
      await raise([{ kind: 'unknownStudent', detail: code ? `student code ${code} not in the school` : 'generic sheet' }]);
    } else if (pageNo === null) {
      await raise([{ kind: 'qrUnreadable', detail: 'sheet page unknown' }]);
    }
  }

  const block = async (): Promise<SettleOutcome> => {
    if (rec.applied) await unapplyPage(tx, rec.id);
    await tx
      .update(pageRecognitions)
      .set({ homeworkId, pageNo, studentId, applied: false })
      .where(eq(pageRecognitions.id, rec.id));
    await tx
      .update(reviewItems)
      .set({ studentId, pageNo })
      .where(and(eq(reviewItems.recognitionId, rec.id), eq(reviewItems.status, 'open')));
    await tx.update(scanPages).set({ status: 'review' }).where(eq(scanPages.id, rec.scanPageId));
    return { homeworkId, status: 'review' };
  };
  if (openPageItems().length > 0 || homeworkId === null || !template || studentId === null || pageNo === null) {
    return block();
  }

  // Serialises the duplicate check and the answers of one student's sheet against a parallel worker.
  await tx.execute(sql`select pg_advisory_xact_lock(${homeworkId}, ${studentId})`);
  const others = await tx
    .select({ id: pageRecognitions.id })
    .from(pageRecognitions)
    .where(
      and(
        eq(pageRecognitions.homeworkId, homeworkId),
        eq(pageRecognitions.studentId, studentId),
        eq(pageRecognitions.pageNo, pageNo),
        eq(pageRecognitions.applied, true),
        ne(pageRecognitions.id, rec.id),
      ),
    );
  if (others.length > 0) {
    const duplicate = items.find((item) => item.kind === 'duplicatePage');
    if (!duplicate) {
      await raise([{ kind: 'duplicatePage', detail: `already counted: page recognition ${others[0]!.id}` }]);
    } else if (duplicate.status !== 'open') {
      // A third scan of a sheet whose duplicate was already settled: ask again.
      await tx
        .update(reviewItems)
        .set({ status: 'open', resolution: null, resolvedAt: null, resolvedBy: null })
        .where(eq(reviewItems.id, duplicate.id));
    }
    return block();
  }

  const sheetPage = { recognitionId: rec.id, homeworkId, studentId, pageNo };
  const calibrate = options.calibrate !== false;
  // (Also a page read again without a calibration: what calibration released before is held again.)
  if (calibrate && (reading.calibration || items.some(isCalibrated))) {
    reading = await calibrateOwnPage(tx, sheetPage, reading);
    // Its items may have been released or opened again.
    items = await tx
      .select()
      .from(reviewItems)
      .where(and(eq(reviewItems.recognitionId, rec.id), ne(reviewItems.kind, 'missingPage')));
  }
  const { objective, regions } = pageQuestionNos(template, pageNo);
  const layouts = template.pages.find((p) => p.page === pageNo)?.objective ?? [];
  await raise(layouts.flatMap((layout) => questionProblems(reading, layout, sheet!.questions.get(layout.questionNo)?.type)));
  const openQuestions = new Set(
    items.filter((item) => item.status === 'open' && item.questionNo !== null).map((item) => item.questionNo!),
  );
  const corrected = new Map<number, string[]>();
  for (const item of [...items].sort((a, b) => a.id - b.id)) {
    if (item.status === 'resolved' && item.questionNo !== null && item.answerLabels)
      corrected.set(item.questionNo, item.answerLabels);
  }
  const pageNos = [...objective, ...regions].filter((no) => sheet!.questions.has(no));
  if (pageNos.length > 0) {
    await tx
      .delete(answers)
      .where(
        and(
          eq(answers.homeworkId, homeworkId),
          eq(answers.studentId, studentId),
          inArray(answers.questionNo, pageNos),
          or(isNull(answers.recognitionId), ne(answers.recognitionId, rec.id)),
        ),
      );
  }
  const values = pageNos.map((no) => {
    const isObjective = objective.includes(no);
    const read = reading.objective.find((o) => o.questionNo === no);
    return {
      orgId: rec.orgId,
      homeworkId,
      studentId,
      questionNo: no,
      recognitionId: rec.id,
      labels: isObjective ? (corrected.get(no) ?? read?.marked ?? []) : null,
      regionPath: isObjective ? null : (rec.regions.find((r) => r.questionNo === no)?.path ?? null),
      needsReview: openQuestions.has(no),
      missing: false,
    };
  });
  const written =
    values.length === 0
      ? []
      : await tx
          .insert(answers)
          .values(values)
          .onConflictDoUpdate({
            target: [answers.homeworkId, answers.studentId, answers.questionNo],
            set: {
              recognitionId: sql`excluded.recognition_id`,
              labels: sql`excluded.labels`,
              regionPath: sql`excluded.region_path`,
              needsReview: sql`excluded.needs_review`,
              missing: false,
              updatedAt: sql`now()`,
            },
          })
          .returning({ id: answers.id });
  const answerIds = written.map((row) => row.id);
  await lockAnswers(tx, answerIds);
  await rescoreAnswers(tx, context!, answerIds);

  await tx.update(pageRecognitions).set({ homeworkId, pageNo, studentId, applied: true }).where(eq(pageRecognitions.id, rec.id));
  await tx
    .update(reviewItems)
    .set({ studentId, pageNo })
    .where(and(eq(reviewItems.recognitionId, rec.id), eq(reviewItems.status, 'open')));
  // The page a missing-page item waited for has arrived.
  await resolveMissingPages(tx, homeworkId, studentId, '已补扫', pageNo);
  const status: ScanPageStatus = items.some((item) => item.status === 'open') ? 'review' : 'recognised';
  await tx.update(scanPages).set({ status }).where(eq(scanPages.id, rec.scanPageId));
  if (calibrate && reading.calibration) {
    await calibrateOtherPages(tx, sheetPage, reading, (id) => settlePage(tx, id, context, { calibrate: false }));
  }
  return { homeworkId, status };
}

/**
 * The pages of a homework that are surely its students' (of one student, when given), with the page
 * number each is of: counted, or waiting in review for anything but an IDENTITY_PROBLEM_KINDS problem.
 * A student with none handed nothing in, whatever else was scanned with their name on it.
 */
function studentPagesOf(tx: Db, homeworkId: number, studentId?: number) {
  return tx
    .select({ id: pageRecognitions.id, studentId: pageRecognitions.studentId, pageNo: pageRecognitions.pageNo })
    .from(pageRecognitions)
    .innerJoin(scanPages, eq(scanPages.id, pageRecognitions.scanPageId))
    .where(
      and(
        eq(pageRecognitions.homeworkId, homeworkId),
        studentId === undefined ? isNotNull(pageRecognitions.studentId) : eq(pageRecognitions.studentId, studentId),
        isNotNull(pageRecognitions.pageNo),
        inArray(scanPages.status, ['recognised', 'review']),
        notExists(
          tx
            .select({ id: reviewItems.id })
            .from(reviewItems)
            .where(
              and(
                eq(reviewItems.recognitionId, pageRecognitions.id),
                eq(reviewItems.status, 'open'),
                inArray(reviewItems.kind, [...IDENTITY_PROBLEM_KINDS]),
              ),
            ),
        ),
      ),
    )
    .orderBy(pageRecognitions.id);
}

/**
 * Raises a missing-page item for every page a student's sheet lacks, among the students with at least
 * one page of the homework counted or under review as surely theirs (studentPagesOf); resolves none (an
 * arriving page does that). An item the server withdrew (withdrawMissingPages) is raised again; one a
 * person resolved never is. Returns how many were raised.
 */
export async function raiseMissingPages(tx: Db, context: HomeworkContext): Promise<number> {
  const pageCountOf = (studentId: number) => sheetOfStudent(context, studentId).template?.pages.length ?? 0;
  if (Math.max(context.template?.pages.length ?? 0, ...[...context.studentSheets.keys()].map(pageCountOf)) <= 1) return 0;
  const present = await studentPagesOf(tx, context.homework.id);
  const byStudent = new Map<number, { recognitionId: number; pages: Set<number> }>();
  for (const row of present) {
    const entry = byStudent.get(row.studentId!) ?? { recognitionId: row.id, pages: new Set<number>() };
    entry.pages.add(row.pageNo!);
    byStudent.set(row.studentId!, entry);
  }
  const values = [...byStudent].flatMap(([studentId, entry]) =>
    Array.from({ length: pageCountOf(studentId) }, (_, i) => i + 1)
      .filter((pageNo) => !entry.pages.has(pageNo))
      .map((pageNo) => ({
        orgId: context.orgId,
        homeworkId: context.homework.id,
        recognitionId: entry.recognitionId,
        kind: 'missingPage' as const,
        pageNo,
        studentId,
        detail: `sheet page ${pageNo} not scanned`,
      })),
  );
  if (values.length === 0) return 0;
  const created = await tx
    .insert(reviewItems)
    .values(values)
    .onConflictDoUpdate({
      target: [reviewItems.homeworkId, reviewItems.studentId, reviewItems.pageNo],
      targetWhere: sql`kind = 'missingPage'`,
      set: {
        status: 'open',
        resolution: null,
        resolvedAt: null,
        resolvedBy: null,
        recognitionId: sql`excluded.recognition_id`,
        detail: sql`excluded.detail`,
      },
      setWhere: and(eq(reviewItems.status, 'resolved'), eq(reviewItems.resolution, MISSING_PAGE_WITHDRAWN)),
    })
    .returning({ id: reviewItems.id });
  return created.length;
}

/**
 * Withdraws the open missing-page items of a student in a homework once no page of theirs is left there
 * (studentPagesOf): a page of theirs was discarded, or moved to another homework or student. Confirming
 * such an item would score 0 a student who handed nothing in. Items a person resolved stay as they are.
 * Run in the transaction that took the page away. Returns how many were withdrawn.
 */
export async function withdrawMissingPages(tx: Db, homeworkId: number | null, studentId: number | null): Promise<number> {
  if (homeworkId === null || studentId === null) return 0;
  const [left] = await studentPagesOf(tx, homeworkId, studentId).limit(1);
  if (left) return 0;
  return resolveMissingPages(tx, homeworkId, studentId, MISSING_PAGE_WITHDRAWN);
}

/** Resolves a student's open missing-page items of a homework (of one page, when given) by the server. Returns how many. */
async function resolveMissingPages(
  tx: Db,
  homeworkId: number,
  studentId: number,
  resolution: string,
  pageNo?: number,
): Promise<number> {
  const resolved = await tx
    .update(reviewItems)
    .set({ status: 'resolved', resolution, resolvedAt: sql`now()` })
    .where(
      and(
        eq(reviewItems.kind, 'missingPage'),
        eq(reviewItems.status, 'open'),
        eq(reviewItems.homeworkId, homeworkId),
        eq(reviewItems.studentId, studentId),
        pageNo === undefined ? undefined : eq(reviewItems.pageNo, pageNo),
      ),
    )
    .returning({ id: reviewItems.id });
  return resolved.length;
}
