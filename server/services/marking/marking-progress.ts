/**
 * Progress of a homework through recognition and marking: the counts the overview and the socket.io
 * events carry, which review items a homework lists, and the homework status that follows from them.
 *
 * Status rule (never for a draft):
 * - 'finished' when the owner closed it (结束阅卷);
 * - 'scanning' while any of its pages waits for recognition;
 * - 'assigned' while none of its students is scanned and it keeps no page;
 * - 'finished' when none waits, no review item is open and every student of its classes is scanned and
 *   fully marked, or marked absent (缺考);
 * - 'marking' otherwise.
 * A late page therefore moves a finished homework back to 'scanning' and on again.
 */
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { MarkingProgress } from '../../../src/shared/contract/marking';
import type { RecognitionProgress } from '../../../src/shared/contract/recognition';
import type { Db } from '../../db/client';
import { answers, homework, homeworkClosures, pageRecognitions, questionScores, reviewItems, scanPages } from '../../db/schema';
import { reviewItemsOf } from './review-scope';
import { homeworkStudentStatuses } from './student-status';

export const PENDING_STATUSES = ['stored', 'recognising'] as const;

/** Scanned pages counting for the homework: recognised for it, or waiting in its batches. */
function pagesOf(orgId: number, homeworkId: number): SQL {
  return and(eq(scanPages.orgId, orgId), sql`coalesce(${pageRecognitions.homeworkId}, ${scanPages.homeworkId}) = ${homeworkId}`)!;
}

export async function recognitionProgress(db: Db, orgId: number, homeworkId: number): Promise<RecognitionProgress> {
  const [pages] = await db
    .select({
      stored: count(),
      pending: sql<number>`count(*) filter (where ${inArray(scanPages.status, [...PENDING_STATUSES])})`.mapWith(Number),
    })
    .from(scanPages)
    .leftJoin(pageRecognitions, eq(pageRecognitions.scanPageId, scanPages.id))
    .where(pagesOf(orgId, homeworkId));
  const [open] = await db
    .select({ value: count() })
    .from(reviewItems)
    .where(and(eq(reviewItems.orgId, orgId), eq(reviewItems.status, 'open'), reviewItemsOf(homeworkId)));
  const stored = pages?.stored ?? 0;
  const pending = pages?.pending ?? 0;
  return { homeworkId, stored, recognised: stored - pending, pending, review: open?.value ?? 0 };
}

/** Pages of the school waiting for recognition (any homework, any instance). */
export async function pendingPagesOfSchool(db: Db, orgId: number): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(scanPages)
    .where(and(eq(scanPages.orgId, orgId), inArray(scanPages.status, [...PENDING_STATUSES])));
  return row?.value ?? 0;
}

export async function questionProgress(db: Db, homeworkId: number, questionNo: number) {
  const [total] = await db
    .select({ value: count() })
    .from(answers)
    .where(and(eq(answers.homeworkId, homeworkId), eq(answers.questionNo, questionNo)));
  const [done] = await db
    .select({ value: count() })
    .from(questionScores)
    .where(and(eq(questionScores.homeworkId, homeworkId), eq(questionScores.questionNo, questionNo)));
  return { homeworkId, questionNo, done: done?.value ?? 0, total: total?.value ?? 0 };
}

/**
 * Applies the status rule above; answers the recognition progress it was decided on. Runs in its own
 * transaction that first locks the homework row, so two syncs (two markers finishing together) run one
 * after the other and the later one decides on what both committed: an older status is never written last.
 */
export async function syncHomeworkStatus(db: Db, orgId: number, homeworkId: number): Promise<RecognitionProgress> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const [row] = await tx
      .select({ status: homework.status })
      .from(homework)
      .where(and(eq(homework.id, homeworkId), eq(homework.orgId, orgId)))
      .for('update');
    const progress = await recognitionProgress(tx, orgId, homeworkId);
    if (!row || row.status === 'draft') return progress;
    const [closure] = await tx
      .select({ id: homeworkClosures.homeworkId })
      .from(homeworkClosures)
      .where(eq(homeworkClosures.homeworkId, homeworkId));
    let next: string;
    if (closure) next = 'finished';
    else if (progress.pending > 0) next = 'scanning';
    else {
      const statuses = await homeworkStudentStatuses(tx, orgId, homeworkId);
      const scanned = statuses.some((s) => s.status === 'marking' || s.status === 'complete');
      const done = statuses.every((s) => s.status === 'complete' || s.status === 'absent');
      // Nothing scanned and no page kept: back to 已布置 (a status set by hand would not say what happened).
      if (!scanned && progress.stored === 0) next = 'assigned';
      else next = progress.review === 0 && scanned && done ? 'finished' : 'marking';
    }
    if (next !== row.status) await tx.update(homework).set({ status: next }).where(eq(homework.id, homeworkId));
    return progress;
  });
}

export type MarkingEvents = {
  recognitionProgress: (orgId: number, progress: RecognitionProgress) => void;
  markingProgress: (orgId: number, progress: MarkingProgress) => void;
};

export type ProgressNotifier = ReturnType<typeof createProgressNotifier>;

/** After a change: broadcast the homework's progress and move its status along the rule above. */
export function createProgressNotifier(db: Db, events: MarkingEvents) {
  return {
    async homeworkChanged(orgId: number, homeworkId: number): Promise<void> {
      events.recognitionProgress(orgId, await syncHomeworkStatus(db, orgId, homeworkId));
    },
    async questionChanged(orgId: number, homeworkId: number, questionNo: number): Promise<void> {
      await syncHomeworkStatus(db, orgId, homeworkId);
      events.markingProgress(orgId, await questionProgress(db, homeworkId, questionNo));
    },
  };
}
