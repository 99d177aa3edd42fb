/**
 * Recognition of one claimed page: reads the stored scan, runs the engine with a template resolver (the
 * QR's homework when it is one of the school's, else a reviewer's choice or the batch's homework), keeps
 * the reading and the cut-out answer regions (file storage, regions/<org>/<imageId>/q<no>.jpg), and
 * settles the page (page-settlement.ts). When the queue drains it looks for missing sheet pages of the
 * homework it touched. Owns no loop (recognition-queue.ts) and no HTTP.
 */
import { eq, sql } from 'drizzle-orm';
import type { SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import { pageReadingSchema } from '../../../src/shared/contract/recognition';
import type { Db } from '../../db/client';
import { pageRecognitions, reviewItems, scanPages, type StoredRegion } from '../../db/schema';
import type { RecognitionEngine, TemplateResolver } from '../recognition/recognition-engine';
import type { FileStorage } from '../storage/file-storage';
import type { MarkingContextLoader } from './marking-context';
import { pendingPagesOfSchool, type ProgressNotifier } from './marking-progress';
import { countingHomeworkOf, qrHomeworkOfSchool, raiseMissingPages, settlePage, templateHomeworkOf } from './page-settlement';
import type { QueueClaim } from './recognition-queue';

/** Longest a homework's progress broadcast waits while its pages are being recognised. */
export const NOTIFY_INTERVAL_MS = 300;

export function regionKey(orgId: number, imageId: string, questionNo: number): string {
  return `regions/${orgId}/${imageId}/q${questionNo}.jpg`;
}

export type RecognitionService = ReturnType<typeof createRecognitionService>;

export function createRecognitionService(deps: {
  db: Db;
  storage: FileStorage;
  contexts: MarkingContextLoader;
  notifier: ProgressNotifier;
  engine: () => RecognitionEngine;
  /** Is the claim still this worker's (see RecognitionQueue.owns)? */
  owns: (tx: Db, claim: QueueClaim) => Promise<boolean>;
  log: { error: (obj: object, msg: string) => void };
}) {
  const { db, storage, contexts, notifier, owns, log } = deps;
  /** Homework (per school) that got pages since the last drain: checked for missing pages then. */
  const touched = new Map<number, Set<number>>();

  function touch(orgId: number, homeworkId: number | null) {
    if (homeworkId === null) return;
    const set = touched.get(orgId) ?? new Set<number>();
    set.add(homeworkId);
    touched.set(orgId, set);
  }

  // Progress of a homework is broadcast (and its status moved on) at most every NOTIFY_INTERVAL_MS while
  // pages stream in, and at once when the queue drains: a class of sheets is one burst, not 40 events.
  const dirty = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const due = [...dirty];
    dirty.clear();
    for (const [homeworkId, orgId] of due) {
      await notifier.homeworkChanged(orgId, homeworkId).catch((error: unknown) => log.error({ err: error }, 'progress failed'));
    }
  }

  function afterChange(orgId: number, homeworkId: number | null) {
    if (homeworkId === null) return;
    dirty.set(homeworkId, orgId);
    timer ??= setTimeout(() => void flush(), NOTIFY_INTERVAL_MS);
    timer.unref();
  }

  return {
    async process(claim: QueueClaim): Promise<void> {
      const engine = deps.engine();
      const [rec] = await db.select().from(pageRecognitions).where(eq(pageRecognitions.id, claim.recognitionId));
      if (!rec) throw new Error(`page recognition ${claim.recognitionId} vanished`);
      const image = await storage.read(claim.storedPath);

      const ours = new Map<number, number | null>();
      const qrHomeworkOf = async (qr: SheetQrPayload | null) => {
        if (!qr) return null;
        if (!ours.has(qr.homeworkId)) ours.set(qr.homeworkId, await qrHomeworkOfSchool(db, claim.orgId, qr));
        return ours.get(qr.homeworkId)!;
      };
      let templateHomeworkId: number | null = null;
      const resolveTemplate: TemplateResolver = async (qr) => {
        const qrHomework = await qrHomeworkOf(qr);
        templateHomeworkId = templateHomeworkOf(rec.forcedHomeworkId, qrHomework, claim.batchHomeworkId);
        if (templateHomeworkId === null) return null;
        const row = await contexts.findHomework(claim.orgId, templateHomeworkId);
        // A personalised set: the QR's student answers their own sheet.
        return row ? contexts.templateFor(row, qr?.studentCode) : null;
      };
      const result = await engine.recognize(image, resolveTemplate);
      const reading = pageReadingSchema.parse(result.reading);

      const regions: StoredRegion[] = result.regions.map((region) => ({
        questionNo: region.questionNo,
        kind: region.kind,
        path: regionKey(claim.orgId, claim.imageId, region.questionNo),
      }));
      await Promise.all(result.regions.map((region, i) => storage.write(regions[i]!.path, region.jpeg)));

      const qrHomework = await qrHomeworkOf(reading.qr);
      const homeworkId = countingHomeworkOf(rec.forcedHomeworkId, qrHomework, claim.batchHomeworkId);
      const context = homeworkId === null ? null : await contexts.forHomework(claim.orgId, homeworkId);

      const outcome = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        if (!(await owns(tx, claim))) return null;
        await tx
          .update(pageRecognitions)
          .set({
            reading,
            regions,
            templateHomeworkId,
            recognisedAt: sql`now()`,
            leaseUntil: null,
            claimToken: null,
            lastError: null,
          })
          .where(eq(pageRecognitions.id, rec.id));
        return settlePage(tx, rec.id, context);
      });
      if (!outcome) return;
      touch(claim.orgId, outcome.homeworkId);
      afterChange(claim.orgId, outcome.homeworkId);
    },

    /** The engine failed on the page every time: out of the queue, and a review item says so. */
    async fail(claim: QueueClaim, error: unknown): Promise<void> {
      const message = String((error as Error)?.message ?? error).slice(0, 400);
      await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Db;
        if (!(await owns(tx, claim))) return;
        await tx
          .update(pageRecognitions)
          .set({ leaseUntil: null, claimToken: null, lastError: message, homeworkId: claim.batchHomeworkId })
          .where(eq(pageRecognitions.id, claim.recognitionId));
        await tx.update(scanPages).set({ status: 'failed' }).where(eq(scanPages.id, claim.scanPageId));
        // No kind says "the engine broke"; an unreadable page is what the teacher sees.
        await tx.insert(reviewItems).values({
          orgId: claim.orgId,
          homeworkId: claim.batchHomeworkId,
          recognitionId: claim.recognitionId,
          kind: 'fiducialsNotFound',
          detail: `recognition failed: ${message}`,
        });
      });
      touch(claim.orgId, claim.batchHomeworkId);
      afterChange(claim.orgId, claim.batchHomeworkId);
    },

    /** The queue ran dry here: a school with nothing left waiting gets its missing pages raised. */
    async drained(): Promise<void> {
      await flush();
      for (const [orgId, homeworkIds] of [...touched]) {
        if ((await pendingPagesOfSchool(db, orgId)) > 0) continue;
        touched.delete(orgId);
        for (const homeworkId of homeworkIds) {
          const context = await contexts.forHomework(orgId, homeworkId);
          if (!context) continue;
          const raised = await db.transaction((tx) => raiseMissingPages(tx as unknown as Db, context));
          if (raised > 0) await notifier.homeworkChanged(orgId, homeworkId);
        }
      }
    },

    touch,
    /** Something about the homework changed (a page stored): broadcast soon. */
    changed: afterChange,
    /** Broadcasts what is still due (the app is closing). */
    flush,
  };
}
