/**
 * Scan batches (扫描批次) and uploaded scanned pages: the payloads of /api/scan/* and the realtime event a
 * stored page raises. Imported by the client (upload queue, scan station) and the server alike.
 *
 * Endpoints (all answers in the `{ code, msg, data }` envelope unless marked "file"):
 * - POST /api/scan/batches                  ScanBatchCreate -> ScanBatch
 * - GET  /api/scan/batches?homeworkId=                      -> ScanBatch[] (newest first, at most 100)
 * - GET  /api/scan/batches/:id                              -> ScanBatch
 * - POST /api/scan/pages   multipart: the fields of ScanPageFields, then `file` (JPEG) -> ScanPageStored
 * - GET  /api/scan/pages/:imageId/image                     -> file image/jpeg
 * Socket.io: SCAN_PAGE_STORED_EVENT with ScanPageStoredEvent, to the sockets of the page's school.
 */
import { z } from 'zod';
import { formIdSchema, idSchema, text } from './primitives';

/** A scanned page may be up to 20 MB (a 300 dpi colour A3 JPEG stays well below). */
export const SCAN_PAGE_MAX_BYTES = 20 * 1024 * 1024;
export const SCAN_STATION_NAME_MAX = 40;
export const SCAN_BATCH_LIST_LIMIT = 100;
export const SCAN_PAGE_STORED_EVENT = 'scan.pageStored';

export const SCAN_MESSAGES = {
  missingFile: '请上传扫描图片',
  notJpeg: '扫描图片必须是 JPG 格式',
  tooLarge: '扫描图片不能超过 20 MB',
  imageConflict: '该图片编号已上传过另一张图片，请重新扫描此页',
  noSchool: '请先加入学校后再进行扫描',
} as const;

/** Ids are PostgreSQL integers: a larger number is a bad request, never a database error. */
const id = idSchema;
const formId = formIdSchema;
const formInt = z.coerce.number().int();

export const scanBatchCreateSchema = z.object({
  /** Absent or null: the homework is recognised later from each sheet's QR code (按二维码识别). */
  homeworkId: id.nullish(),
  stationName: text().trim().min(1, '请填写扫描站名称').max(SCAN_STATION_NAME_MAX, '扫描站名称不能超过 40 个字'),
});
export type ScanBatchCreate = z.input<typeof scanBatchCreateSchema>;

export const scanBatchSchema = z.object({
  id,
  orgId: id,
  homeworkId: id.nullable(),
  stationName: z.string(),
  createdBy: id.nullable(),
  createdAt: z.string(),
  pageCount: z.number().int().nonnegative(),
});
export type ScanBatch = z.infer<typeof scanBatchSchema>;
export const scanBatchListSchema = z.array(scanBatchSchema);

export const scanBatchListQuerySchema = z.object({ homeworkId: formId.optional() });
export const scanBatchParamsSchema = z.object({ id: formId });

/** The text fields of POST /api/scan/pages (multipart, sent before the file). */
export const scanPageFieldsSchema = z.object({
  batchId: formId,
  imageId: z.uuid('图片编号格式错误'),
  sequence: formInt.min(0).max(1_000_000),
  scanSubject: z.enum(['true', 'false']).transform((value) => value === 'true'),
  width: formInt.min(1).max(20_000),
  height: formInt.min(1).max(20_000),
});
export type ScanPageFields = z.infer<typeof scanPageFieldsSchema>;

export const scanPageImageParamsSchema = z.object({ imageId: z.uuid('图片编号格式错误') });

/** The answer to an upload: `duplicate` when this image id was already stored (nothing was stored again). */
export const scanPageStoredSchema = z.object({
  imageId: z.string(),
  duplicate: z.boolean(),
  batchPageCount: z.number().int().nonnegative(),
});
export type ScanPageStored = z.infer<typeof scanPageStoredSchema>;

export const scanPageStoredEventSchema = z.object({
  homeworkId: id.nullable(),
  batchId: id,
  pageCount: z.number().int().nonnegative(),
});
export type ScanPageStoredEvent = z.infer<typeof scanPageStoredEventSchema>;
