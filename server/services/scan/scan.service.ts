/**
 * Scan batches and scanned pages of a school: creating and listing batches, storing an uploaded page
 * exactly once per image id, and reading a page's image back. Every call works inside the caller's
 * default school; another school's batch, homework or page is "not found". Does not broadcast: it tells
 * `onPageStored` and the plugin decides where that goes.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import {
  SCAN_BATCH_LIST_LIMIT,
  SCAN_MESSAGES,
  type ScanBatch,
  type ScanPageFields,
  type ScanPageStored,
  type ScanPageStoredEvent,
} from '../../../src/shared/contract/scan-upload';
import type { Db } from '../../db/client';
import { homework, memberships, scanBatches, scanPages, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { SCANNED_SAMPLE_SIZE, type UnscannedStudents } from '../../../src/shared/contract/scan';
import { homeworkStudentStatuses } from '../marking/student-status';
import { assertWorksOn, loadActor } from '../org/permissions';
import { HOMEWORK_STATUS_MESSAGES } from '../papers/homework.service';
import type { FileStorage } from '../storage/file-storage';

export type ScanService = ReturnType<typeof createScanService>;

export type ScanServiceDeps = {
  db: Db;
  storage: FileStorage;
  /** Called after a page was stored (not for duplicates), with the school it belongs to. */
  onPageStored?: (orgId: number, event: ScanPageStoredEvent) => void;
};

/** JPEG files start with the SOI marker followed by another marker: FF D8 FF. */
export function isJpeg(data: Buffer): boolean {
  return data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff;
}

/** Where a page's image is kept: per school, per homework (`qr` while the QR code has yet to tell). */
export function scanPageKey(orgId: number, homeworkId: number | null, imageId: string): string {
  return `scans/${orgId}/${homeworkId ?? 'qr'}/${imageId}.jpg`;
}

const CONFLICT = 409;

function toBatch(row: typeof scanBatches.$inferSelect): ScanBatch {
  return {
    id: row.id,
    orgId: row.orgId,
    homeworkId: row.homeworkId,
    stationName: row.stationName,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    pageCount: row.pageCount,
  };
}

export function createScanService({ db, storage, onPageStored }: ScanServiceDeps) {
  /** The caller's default school, checked against their memberships. */
  async function requireOrg(userId: number): Promise<number> {
    const [row] = await db
      .select({ orgId: memberships.orgId })
      .from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, users.defaultOrgId)))
      .where(eq(users.id, userId));
    if (!row) throw new ApiError(403, SCAN_MESSAGES.noSchool);
    return row.orgId;
  }

  async function requireBatch(orgId: number, batchId: number) {
    const [row] = await db
      .select()
      .from(scanBatches)
      .where(and(eq(scanBatches.id, batchId), eq(scanBatches.orgId, orgId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** Into someone else's batch of a homework: only who may scan that homework (the creator was checked). */
  async function requireScanner(userId: number, orgId: number, batch: typeof scanBatches.$inferSelect) {
    if (batch.createdBy === userId || batch.homeworkId === null) return;
    const [row] = await db
      .select({ id: homework.id, createdBy: homework.createdBy, paperId: homework.paperId })
      .from(homework)
      .where(eq(homework.id, batch.homeworkId));
    if (row) await assertWorksOn(db, await loadActor(db, userId, orgId), row);
  }

  async function findPage(imageId: string) {
    const [row] = await db.select().from(scanPages).where(eq(scanPages.imageId, imageId));
    return row;
  }

  /** The answer to a repeated upload: the same bytes are a duplicate, other bytes a conflict. */
  async function answerExisting(orgId: number, existing: typeof scanPages.$inferSelect, sha256: string): Promise<ScanPageStored> {
    if (existing.orgId !== orgId || existing.sha256 !== sha256) throw new ApiError(CONFLICT, SCAN_MESSAGES.imageConflict);
    const batch = await requireBatch(orgId, existing.batchId);
    return { imageId: existing.imageId, duplicate: true, batchPageCount: batch.pageCount };
  }

  return {
    /** Who of the homework's students is still to be scanned (see UnscannedStudents). */
    async unscannedStudents(userId: number, homeworkId: number): Promise<UnscannedStudents> {
      const orgId = await requireOrg(userId);
      const [found] = await db
        .select({ id: homework.id })
        .from(homework)
        .where(and(eq(homework.id, homeworkId), eq(homework.orgId, orgId)));
      if (!found) throw ApiError.notFound();
      const statuses = await homeworkStudentStatuses(db, orgId, homeworkId);
      const pick = (s: { name: string; code: string }) => ({ name: s.name, code: s.code });
      return {
        homeworkId,
        unscanned: statuses.filter((s) => s.status === 'unscanned').map(pick),
        scanned: statuses
          .filter((s) => s.status === 'marking' || s.status === 'complete')
          .slice(0, SCANNED_SAMPLE_SIZE)
          .map(pick),
      };
    },

    async createBatch(userId: number, input: { homeworkId?: number | null; stationName: string }): Promise<ScanBatch> {
      const orgId = await requireOrg(userId);
      const homeworkId = input.homeworkId ?? null;
      if (homeworkId !== null) {
        const [found] = await db
          .select({ id: homework.id, createdBy: homework.createdBy, paperId: homework.paperId, status: homework.status })
          .from(homework)
          .where(and(eq(homework.id, homeworkId), eq(homework.orgId, orgId)));
        if (!found) throw ApiError.notFound();
        if (found.status === 'draft') throw ApiError.badRequest(HOMEWORK_STATUS_MESSAGES.draftCannotScan);
        // Scanning a homework's sheets: whoever works on it (its owner, admins, markers, its classes' teachers).
        await assertWorksOn(db, await loadActor(db, userId, orgId), found);
      }
      const [row] = await db
        .insert(scanBatches)
        .values({ orgId, homeworkId, stationName: input.stationName, createdBy: userId })
        .returning();
      return toBatch(row!);
    },

    async listBatches(userId: number, query: { homeworkId?: number | undefined }): Promise<ScanBatch[]> {
      const orgId = await requireOrg(userId);
      const rows = await db
        .select()
        .from(scanBatches)
        .where(
          and(
            eq(scanBatches.orgId, orgId),
            query.homeworkId !== undefined ? eq(scanBatches.homeworkId, query.homeworkId) : undefined,
          ),
        )
        .orderBy(desc(scanBatches.createdAt), desc(scanBatches.id))
        .limit(SCAN_BATCH_LIST_LIMIT);
      return rows.map(toBatch);
    },

    async getBatch(userId: number, batchId: number): Promise<ScanBatch> {
      return toBatch(await requireBatch(await requireOrg(userId), batchId));
    },

    /** Stores the page once: a repeated image id with the same bytes answers `duplicate` and writes nothing. */
    async storePage(userId: number, fields: ScanPageFields, data: Buffer): Promise<ScanPageStored> {
      const orgId = await requireOrg(userId);
      if (!isJpeg(data)) throw ApiError.badRequest(SCAN_MESSAGES.notJpeg);
      const batch = await requireBatch(orgId, fields.batchId);
      await requireScanner(userId, orgId, batch);
      const sha256 = createHash('sha256').update(data).digest('hex');
      const existing = await findPage(fields.imageId);
      if (existing) return answerExisting(orgId, existing, sha256);

      const storedPath = scanPageKey(orgId, batch.homeworkId, fields.imageId);
      // The row and the file commit together; a concurrent upload of the same id waits on the unique
      // index and then finds the row, so the file is written by one request only.
      const pageCount = await db.transaction(async (tx) => {
        const inserted = await tx
          .insert(scanPages)
          .values({
            imageId: fields.imageId,
            batchId: batch.id,
            orgId,
            homeworkId: batch.homeworkId,
            sequence: fields.sequence,
            scanSubject: fields.scanSubject,
            width: fields.width,
            height: fields.height,
            bytes: data.length,
            sha256,
            storedPath,
          })
          .onConflictDoNothing({ target: scanPages.imageId })
          .returning({ id: scanPages.id });
        if (inserted.length === 0) return null;
        await storage.write(storedPath, data);
        const [updated] = await tx
          .update(scanBatches)
          .set({ pageCount: sql`${scanBatches.pageCount} + 1` })
          .where(eq(scanBatches.id, batch.id))
          .returning({ pageCount: scanBatches.pageCount });
        return updated!.pageCount;
      });
      if (pageCount === null) {
        const raced = await findPage(fields.imageId);
        if (!raced) throw new Error('scan page vanished after a unique conflict');
        return answerExisting(orgId, raced, sha256);
      }
      onPageStored?.(orgId, { homeworkId: batch.homeworkId, batchId: batch.id, pageCount });
      return { imageId: fields.imageId, duplicate: false, batchPageCount: pageCount };
    },

    /** The JPEG of a page of the caller's school. */
    async readPageImage(userId: number, imageId: string): Promise<Buffer> {
      const orgId = await requireOrg(userId);
      const [row] = await db
        .select({ storedPath: scanPages.storedPath })
        .from(scanPages)
        .where(and(eq(scanPages.imageId, imageId), eq(scanPages.orgId, orgId)));
      if (!row) throw ApiError.notFound();
      return storage.read(row.storedPath);
    },
  };
}
