/**
 * Test helpers for the scan endpoints: real JPEG bytes, multipart bodies for POST /api/scan/pages, and a
 * second school with its own member, homework and batch.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { classes, homework, memberships, orgs, papers, subjects, users } from '../../../server/db/schema';
import { bearer } from '../accounts-helper';
import { eq } from 'drizzle-orm';

/** A small real JPEG; `shade` makes images with different bytes. */
export function jpeg(shade = 200, width = 24, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: shade, g: shade, b: shade } } })
    .jpeg()
    .toBuffer();
}

export type PageFields = {
  batchId: number | string;
  imageId: string;
  sequence?: number | string;
  scanSubject?: boolean | string;
  width?: number | string;
  height?: number | string;
};

/** A multipart body: the text fields first, then the file (as the upload queue sends it). */
export function multipart(
  fields: Record<string, string | number | boolean | undefined>,
  file?: { data: Buffer; name?: string; field?: string },
) {
  const boundary = `----scan${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name ?? 'page.jpg'}"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadPage(app: FastifyInstance, token: string, fields: PageFields, data: Buffer | undefined) {
  const body = multipart(
    { sequence: 1, scanSubject: true, width: 24, height: 32, ...fields },
    data ? { data, name: `${fields.imageId}.jpg` } : undefined,
  );
  return app.inject({
    method: 'POST',
    url: '/api/scan/pages',
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

export async function createBatch(app: FastifyInstance, token: string, body: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/api/scan/batches', headers: bearer(token), payload: body });
}

/**
 * A paper and an assigned homework of `orgId` (subject and school year of that school), owned by
 * `createdBy` (who may then scan it).
 */
export async function insertHomework(
  app: FastifyInstance,
  orgId: number,
  title = '第一单元作业',
  createdBy: number | null = null,
): Promise<number> {
  const db = app.database.db;
  const [subject] = await db.select().from(subjects).where(eq(subjects.orgId, orgId)).limit(1);
  const [year] = await db.select().from(classes).where(eq(classes.orgId, orgId)).limit(1);
  const [paper] = await db
    .insert(papers)
    .values({ orgId, subjectId: subject!.id, schoolYearId: year!.id, title })
    .returning({ id: papers.id });
  const [row] = await db
    .insert(homework)
    .values({ orgId, paperId: paper!.id, title, status: 'assigned', startDate: '2026-03-02', dueDate: '2026-03-09', createdBy })
    .returning({ id: homework.id });
  return row!.id;
}

/** Another school, with `userId` as its member (and that school as the user's default). */
export async function insertOtherSchool(app: FastifyInstance, userId: number): Promise<number> {
  const db = app.database.db;
  const [org] = await db.insert(orgs).values({ name: '另一所中学' }).returning({ id: orgs.id });
  const orgId = org!.id;
  await db.insert(subjects).values({ orgId, name: '数学' });
  await db.insert(classes).values({ orgId, type: 1, name: '2026级' });
  await db.insert(memberships).values({ orgId, userId, role: 'creator' });
  await db.update(users).set({ defaultOrgId: orgId }).where(eq(users.id, userId));
  return orgId;
}
