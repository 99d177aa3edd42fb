/**
 * Test helpers for the question-bank, paper, homework and student endpoints: a second school with its
 * own teacher (to prove one school cannot reach another's data), authorised requests, and a tiny zip
 * reader for checking downloaded .docx and .xlsx files.
 */
import { inflateRawSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { classes, memberships, orgs, subjects, users } from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/db/seed';
import { hashPassword } from '../../../server/services/auth/password-hasher';
import { bearer, loginAs } from '../accounts-helper';

export type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** Requests as one logged-in user. */
export async function callerFor(app: FastifyInstance, username: string): Promise<Caller> {
  const { access_token } = await loginAs(app, username);
  return (options) => app.inject({ ...options, headers: { ...bearer(access_token), ...options.headers } });
}

/** Another school (其他中学) with 数学, a school year, a class and a teacher `other` who belongs only there. */
export async function createOtherSchool(app: FastifyInstance) {
  const db = app.database.db;
  const [org] = await db.insert(orgs).values({ name: '其他中学' }).returning();
  const [subject] = await db.insert(subjects).values({ orgId: org!.id, name: '数学', sort: 1 }).returning();
  const [year] = await db.insert(classes).values({ orgId: org!.id, type: 1, name: '2026级' }).returning();
  const [klass] = await db.insert(classes).values({ orgId: org!.id, type: 2, pid: year!.id, name: '一班' }).returning();
  const [user] = await db
    .insert(users)
    .values({ username: 'other', nickname: '赵老师', passwordHash: await hashPassword(DEMO_PASSWORD), defaultOrgId: org!.id })
    .returning();
  await db.insert(memberships).values({ orgId: org!.id, userId: user!.id, role: 'teacher', defaultClassId: year!.id });
  return {
    orgId: org!.id,
    subjectId: subject!.id,
    schoolYearId: year!.id,
    classId: klass!.id,
    call: await callerFor(app, 'other'),
  };
}

/** The files of a zip archive (read through its central directory), by name. */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('not a zip archive');
  const entries = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < entries; i += 1) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const method = archive.readUInt16LE(at + 10);
    const size = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const skip = archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(dataAt, dataAt + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + skip;
  }
  return files;
}

/** A multipart body with one file field. */
export function multipartFile(field: string, fileName: string, content: Buffer, type: string) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
