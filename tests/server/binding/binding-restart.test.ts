/**
 * 装订 jobs outlive the app instance: a finished job and its file are still there after a restart (a new
 * app on the same database and storage), and a job whose instance stopped mid-way is taken over and
 * finished: by the next poll, or by an instance starting, without anybody polling; of several instances
 * trying at once, exactly one takes it.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { BindingJobCreate } from '../../../src/shared/contract/binding';
import type { Db } from '../../../server/db/client';
import { bindingJobs, homeworkClasses, students } from '../../../server/db/schema';
import { BINDING_KEEP_MS, BINDING_STALE_MS, createBindingService } from '../../../server/services/binding/binding.service';
import { callerFor, createMarkingApp, type Caller, type MarkingApp, persistentDatabase } from '../marking/marking-helper';

type Job = { id: string; status: string; done: number; total: number; error: string | null; fileName: string | null };

async function finished(call: Caller, id: string): Promise<Job> {
  for (let i = 0; i < 1200; i += 1) {
    const response = await call({ method: 'GET', url: `/api/binding/jobs/${id}` });
    expect(response.statusCode, response.body).toBe(200);
    const job = response.json().data as Job;
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('job did not finish');
}

/**
 * A job whose instance stopped: running, its heartbeat (lease) older than BINDING_STALE_MS. Answers its id.
 */
async function insertOrphan(
  db: Db,
  job: { orgId: number; userId: number; input: BindingJobCreate; total?: number; done?: number },
): Promise<string> {
  const id = randomUUID();
  await db.insert(bindingJobs).values({
    id,
    title: '中断的装订',
    heartbeatAt: new Date(Date.now() - BINDING_STALE_MS - 5_000),
    ...job,
  });
  return id;
}

/** The job's row once it is no longer running, read from the database (no poll that would take it over). */
async function settledRow(db: Db, id: string) {
  for (let i = 0; i < 1200; i += 1) {
    const [row] = await db.select().from(bindingJobs).where(eq(bindingJobs.id, id));
    if (row && row.status !== 'running') return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('job did not finish');
}

describe('装订 jobs across restarts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-binding-'));
  const { database, drop } = persistentDatabase(dataDir);
  const shared = { dataDir, database };
  let open: MarkingApp | undefined;

  afterAll(async () => {
    await open?.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a finished job and its file, and finishes a job whose instance stopped', async () => {
    open = await createMarkingApp({ shared });
    let creator = await callerFor(open.app, 'creator');
    const [link] = await open.app.database.db.select().from(homeworkClasses).limit(1);
    const roster = await open.app.database.db.select().from(students).where(eq(students.classId, link!.classId));
    const booklet = { kind: 'homework', homeworkId: link!.homeworkId, classId: link!.classId } as const;
    const term = { kind: 'students', classId: link!.classId, from: '2020-01-01', to: '2020-01-02', format: 'zip' } as const;
    const started = await creator({ method: 'POST', url: '/api/binding/jobs', payload: booklet });
    expect(started.statusCode, started.body).toBe(200);
    const done = await finished(creator, started.json().data.id);
    expect(done.status).toBe('done');
    const before = await creator({ method: 'GET', url: `/api/binding/jobs/${done.id}/file` });
    expect(before.statusCode).toBe(200);
    const [row] = await open.app.database.db.select().from(bindingJobs).where(eq(bindingJobs.id, done.id));
    expect(row!.filePath).toBe(`binding/${row!.orgId}/${done.id}.pdf`);

    // A job whose instance died after two students: running, its heartbeat long still.
    const orphanId = await insertOrphan(open.app.database.db, {
      orgId: row!.orgId,
      userId: row!.userId,
      input: booklet,
      total: roster.length,
      done: 2,
    });
    // A job finished longer ago than jobs are kept.
    const expired = randomUUID();
    await open.app.database.db.insert(bindingJobs).values({
      id: expired,
      orgId: row!.orgId,
      userId: row!.userId,
      input: term,
      title: '过期的装订',
      status: 'done',
      finishedAt: new Date(Date.now() - BINDING_KEEP_MS - 60_000),
    });
    await open.close();

    // Second life: a new app on the same database and file storage.
    open = await createMarkingApp({ shared });
    creator = await callerFor(open.app, 'creator');
    const again = await creator({ method: 'GET', url: `/api/binding/jobs/${done.id}` });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({ id: done.id, status: 'done', fileName: done.fileName, total: done.total });
    const after = await creator({ method: 'GET', url: `/api/binding/jobs/${done.id}/file` });
    expect(after.statusCode).toBe(200);
    expect(Buffer.compare(after.rawPayload, before.rawPayload)).toBe(0);

    // The orphan is taken over (by the new instance as it starts, or the first poll) and made again from its input.
    const resumed = await finished(creator, orphanId);
    expect(resumed).toMatchObject({ status: 'done', done: roster.length, total: roster.length, error: null });
    const file = await creator({ method: 'GET', url: `/api/binding/jobs/${orphanId}/file` });
    expect(file.headers['content-type']).toContain('application/pdf');
    expect((await PDFDocument.load(file.rawPayload)).getPageCount()).toBeGreaterThanOrEqual(1);

    // A job past its keeping time is gone (404), and the next start sweeps its row away.
    expect((await creator({ method: 'GET', url: `/api/binding/jobs/${expired}` })).statusCode).toBe(404);
    await creator({ method: 'POST', url: '/api/binding/jobs', payload: term });
    expect(await open.app.database.db.select().from(bindingJobs).where(eq(bindingJobs.id, expired))).toEqual([]);
  }, 180_000);

  it('fails a taken-over job its user may no longer make, in Chinese', async () => {
    const creator = await callerFor(open!.app, 'creator');
    const [row] = await open!.app.database.db.select().from(bindingJobs).limit(1);
    const orphanId = await insertOrphan(open!.app.database.db, {
      orgId: row!.orgId,
      userId: creator.userId,
      // A class that no longer exists.
      input: { kind: 'students', classId: 999_999, from: '2020-01-01', to: '2030-12-31', format: 'pdf' },
    });
    const job = await finished(creator, orphanId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^装订失败：/);
  }, 60_000);

  it('finishes a job whose instance stopped as soon as a new instance starts, with nobody polling', async () => {
    const db = open!.app.database.db;
    const [link] = await db.select().from(homeworkClasses).limit(1);
    const [row] = await db.select().from(bindingJobs).limit(1);
    const input = { kind: 'homework', homeworkId: link!.homeworkId, classId: link!.classId } as const;
    const orphanId = await insertOrphan(db, { orgId: row!.orgId, userId: row!.userId, input, total: 3, done: 1 });
    await open!.close();

    open = await createMarkingApp({ shared });
    const resumed = await settledRow(open.app.database.db, orphanId);
    expect(resumed).toMatchObject({ status: 'done', error: null });
    expect(resumed.filePath).toBe(`binding/${row!.orgId}/${orphanId}.pdf`);
  }, 180_000);

  it('lets exactly one of several instances take over a job whose instance stopped', async () => {
    const db = open!.app.database.db;
    const [link] = await db.select().from(homeworkClasses).limit(1);
    const [row] = await db.select().from(bindingJobs).limit(1);
    const input = { kind: 'homework', homeworkId: link!.homeworkId, classId: link!.classId } as const;
    const orphanId = await insertOrphan(db, { orgId: row!.orgId, userId: row!.userId, input });
    // Three instances over the same database and storage look for stale jobs at the same moment.
    const deps = { db, storage: open!.app.storage, scores: open!.app.marking.scores };
    const instances = [createBindingService(deps), createBindingService(deps), createBindingService(deps)];
    const won = await Promise.all(instances.map((instance) => instance.resumeStale()));
    expect(won.flat().filter((id) => id === orphanId)).toEqual([orphanId]);
    // A lease just renewed is not stale: nobody takes the job again while it runs.
    expect((await Promise.all(instances.map((instance) => instance.resumeStale()))).flat()).not.toContain(orphanId);
    expect(await settledRow(db, orphanId)).toMatchObject({ status: 'done', error: null });
  }, 120_000);
});
