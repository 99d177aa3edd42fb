/**
 * Calibration across the pages of one student's answer sheet, at settlement (page-settlement.ts). Each
 * page is read alone; a page keeps its calibration with its reading (recognition/sheet-calibration.ts).
 * When a page of a student's sheet settles, the questions it held only for a doubt of its own
 * calibration are decided again with the calibrations of the student's other pages of the homework, and
 * so are such questions still held on those other pages: released (and scored) when the pooled
 * calibration reads the same marks and is confident, left as they are otherwise.
 *
 * What a person did is never touched: a question with a resolved review item (a person's 确认 or
 * 更正), or any item other than the engine's low confidence, is not decided again. An open item that
 * another transaction holds (a reviewer deciding it right now) is skipped, as is another page whose
 * row is held: no wait here, so no deadlock with a reviewer (who locks item, then page) or with the
 * student's other page settling on another instance (which waits for the sheet's advisory lock the
 * caller holds, and pools this page when it gets it). An item released here is resolved with
 * CALIBRATED_RESOLUTION and no person; when a page is read again and the pool no longer releases its
 * question, that item is opened again. Runs inside the caller's transaction, under the advisory lock of
 * (homework, student).
 */
import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { PageCalibration, PageReading } from '../../../src/shared/contract/recognition';
import { LOW_CONFIDENCE } from '../../../src/shared/contract/recognition';
import type { Db } from '../../db/client';
import { pageRecognitions, reviewItems, scanPages } from '../../db/schema';
import { calibrateReading } from '../recognition/sheet-calibration';

/** The resolution of a review item released by the calibration of the student's other pages (no person). */
export const CALIBRATED_RESOLUTION = '已按该生答题卡其他页的填涂确认识别结果';

export type SheetPage = { recognitionId: number; homeworkId: number; studentId: number; pageNo: number };

type ItemRow = typeof reviewItems.$inferSelect;

/** The student's other counted pages of the homework (other page numbers) that keep a calibration. */
async function otherPages(tx: Db, page: SheetPage) {
  const rows = await tx
    .select({ id: pageRecognitions.id, reading: pageRecognitions.reading })
    .from(pageRecognitions)
    .innerJoin(scanPages, eq(scanPages.id, pageRecognitions.scanPageId))
    .where(
      and(
        eq(pageRecognitions.homeworkId, page.homeworkId),
        eq(pageRecognitions.studentId, page.studentId),
        eq(pageRecognitions.applied, true),
        ne(pageRecognitions.id, page.recognitionId),
        ne(pageRecognitions.pageNo, page.pageNo),
        inArray(scanPages.status, ['recognised', 'review']),
      ),
    )
    .orderBy(pageRecognitions.id);
  return rows.flatMap((row) => (row.reading?.calibration ? [{ id: row.id, reading: row.reading }] : []));
}

/** An item this calibration resolved (no person did). */
export const isCalibrated = (item: ItemRow) =>
  item.status === 'resolved' && item.resolvedBy === null && item.resolution === CALIBRATED_RESOLUTION;

/**
 * Which held questions of a page may be decided again, by their review items: none yet, or only the
 * engine's open low-confidence item, locked here (SKIP LOCKED), or one this calibration resolved before.
 */
async function candidatesOf(tx: Db, recognitionId: number, questionNos: readonly number[]) {
  const items = await tx
    .select()
    .from(reviewItems)
    .where(and(eq(reviewItems.recognitionId, recognitionId), isNotNull(reviewItems.questionNo)));
  const openIds = items
    .filter((item) => item.status === 'open' && item.kind === 'lowConfidence' && questionNos.includes(item.questionNo!))
    .map((item) => item.id);
  const locked = new Set(
    openIds.length === 0
      ? []
      : (
          await tx
            .select({ id: reviewItems.id })
            .from(reviewItems)
            .where(and(inArray(reviewItems.id, openIds), eq(reviewItems.status, 'open')))
            .for('update', { skipLocked: true })
        ).map((row) => row.id),
  );
  const candidates = new Set<number>();
  const open = new Map<number, number>();
  for (const no of questionNos) {
    const mine = items.filter((item) => item.questionNo === no);
    const free = mine.every((item) => (item.kind === 'lowConfidence' && locked.has(item.id)) || isCalibrated(item));
    if (!free) continue;
    candidates.add(no);
    const item = mine.find((i) => locked.has(i.id));
    if (item) open.set(no, item.id);
  }
  return { candidates, open, items };
}

async function resolveCalibrated(tx: Db, itemIds: number[]) {
  if (itemIds.length === 0) return;
  await tx
    .update(reviewItems)
    .set({ status: 'resolved', resolution: CALIBRATED_RESOLUTION, resolvedBy: null, resolvedAt: sql`now()` })
    .where(and(inArray(reviewItems.id, itemIds), eq(reviewItems.status, 'open')));
}

const heldNos = (calibration: PageCalibration) => calibration.held.map((h) => h.questionNo);

/**
 * Decides the settling page's held questions again with the student's other pages; returns its reading
 * (stored when it changed). Items this calibration resolved before whose question the page now holds
 * again (read again, the pool changed) are opened again.
 */
export async function calibrateOwnPage(tx: Db, page: SheetPage, reading: PageReading): Promise<PageReading> {
  const calibration = reading.calibration;
  const others = calibration ? await otherPages(tx, page) : [];
  const { candidates, open, items } = await candidatesOf(tx, page.recognitionId, calibration ? heldNos(calibration) : []);
  const result = calibration
    ? calibrateReading(
        reading,
        others.map((o) => o.reading.calibration!),
        candidates,
      )
    : { reading, released: [] };
  const released = new Set(result.released.map((r) => r.questionNo));
  await resolveCalibrated(
    tx,
    [...open].filter(([no]) => released.has(no)).map(([, id]) => id),
  );
  // Held by the reading as it is now: a low confidence, a question problem the engine raised, or not read.
  const stillHeld = (no: number) => {
    const read = result.reading.objective.find((o) => o.questionNo === no);
    return !read || read.confidence < LOW_CONFIDENCE || result.reading.problems.some((p) => p.questionNo === no);
  };
  const reopen = items.filter((item) => isCalibrated(item) && stillHeld(item.questionNo!)).map((item) => item.id);
  if (reopen.length > 0) {
    await tx
      .update(reviewItems)
      .set({ status: 'open', resolution: null, resolvedAt: null })
      .where(inArray(reviewItems.id, reopen));
  }
  if (result.released.length > 0) {
    await tx.update(pageRecognitions).set({ reading: result.reading }).where(eq(pageRecognitions.id, page.recognitionId));
  }
  return result.reading;
}

/**
 * Decides the held questions of the student's other pages again with the settling page's calibration
 * joined to theirs. Each page that releases a question has its reading and items updated and is then
 * settled again by `settle` (its answers released and scored). Returns the pages settled again.
 */
export async function calibrateOtherPages(
  tx: Db,
  page: SheetPage,
  reading: PageReading,
  settle: (recognitionId: number) => Promise<unknown>,
): Promise<number[]> {
  if (!reading.calibration) return [];
  const others = await otherPages(tx, page);
  const settled: number[] = [];
  for (const other of others) {
    const priors = [reading.calibration, ...others.filter((o) => o.id !== other.id).map((o) => o.reading.calibration!)];
    if (calibrateReading(other.reading, priors).released.length === 0) continue;
    // The page's row, unless another transaction holds it (a reviewer deciding it settles it, pooling then).
    const [locked] = await tx
      .select({ reading: pageRecognitions.reading, applied: pageRecognitions.applied })
      .from(pageRecognitions)
      .where(eq(pageRecognitions.id, other.id))
      .for('update', { skipLocked: true });
    if (!locked?.reading?.calibration || !locked.applied) continue;
    const { candidates, open } = await candidatesOf(tx, other.id, heldNos(locked.reading.calibration));
    const result = calibrateReading(locked.reading, priors, candidates);
    if (result.released.length === 0) continue;
    const released = new Set(result.released.map((r) => r.questionNo));
    await resolveCalibrated(
      tx,
      [...open].filter(([no]) => released.has(no)).map(([, id]) => id),
    );
    await tx.update(pageRecognitions).set({ reading: result.reading }).where(eq(pageRecognitions.id, other.id));
    await settle(other.id);
    settled.push(other.id);
  }
  return settled;
}
