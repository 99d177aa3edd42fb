import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  classes,
  homework,
  homeworkAbsences,
  homeworkClasses,
  pageRecognitions,
  scanBatches,
  scanPages,
  students,
} from '../../../server/db/schema';
import { useTestApp } from '../helper';
import { addMember, demoSchool } from '../org/org-helper';
import { callerFor, createOtherSchool, unzip } from '../papers/papers-helper';

type Job = { id: string; status: string; done: number; total: number; error: string | null; fileName: string | null };

describe('装订 (paper binding)', () => {
  const app = useTestApp();

  /** A seeded homework of the demo school with one class, two of whose students have a scanned page each. */
  async function scannedHomework() {
    const db = app().database.db;
    const [link] = await db
      .select({
        homeworkId: homeworkClasses.homeworkId,
        classId: homeworkClasses.classId,
        orgId: homework.orgId,
        title: homework.title,
      })
      .from(homeworkClasses)
      .innerJoin(homework, eq(homework.id, homeworkClasses.homeworkId))
      .limit(1);
    const roster = (await db.select().from(students).where(eq(students.classId, link!.classId))).sort((a, b) =>
      a.code.localeCompare(b.code),
    );
    const [klass] = await db.select().from(classes).where(eq(classes.id, link!.classId));
    const [batch] = await db
      .insert(scanBatches)
      .values({ orgId: link!.orgId, homeworkId: link!.homeworkId, stationName: 'test' })
      .returning();
    const image = await sharp({ create: { width: 420, height: 594, channels: 3, background: '#f4f4f4' } })
      .png()
      .toBuffer();
    let sequence = 0;
    for (const student of roster.slice(0, 2)) {
      sequence += 1;
      const imageId = randomUUID();
      const storedPath = `scans/${link!.orgId}/${batch!.id}/${imageId}.png`;
      await app().storage.write(storedPath, image);
      const [page] = await db
        .insert(scanPages)
        .values({
          imageId,
          batchId: batch!.id,
          orgId: link!.orgId,
          homeworkId: link!.homeworkId,
          sequence,
          scanSubject: false,
          width: 420,
          height: 594,
          bytes: image.length,
          sha256: imageId,
          storedPath,
          status: 'recognised',
        })
        .returning();
      await db.insert(pageRecognitions).values({
        orgId: link!.orgId,
        scanPageId: page!.id,
        imageId,
        batchId: batch!.id,
        homeworkId: link!.homeworkId,
        pageNo: 1,
        studentId: student.id,
      });
    }
    // The third student is absent (缺考).
    await db.insert(homeworkAbsences).values({ orgId: link!.orgId, homeworkId: link!.homeworkId, studentId: roster[2]!.id });
    return { ...link!, roster, className: klass!.name };
  }

  async function finished(call: Awaited<ReturnType<typeof callerFor>>, id: string): Promise<Job> {
    for (let i = 0; i < 200; i += 1) {
      const response = await call({ method: 'GET', url: `/api/binding/jobs/${id}` });
      const job = response.json().data as Job;
      if (job.status !== 'running') return job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('job did not finish');
  }

  it('binds a class booklet of a homework: a cover with totals, 缺考 and 未扫描, then the scanned pages in 学号 order', async () => {
    const { homeworkId, classId, roster, title, className } = await scannedHomework();
    const call = await callerFor(app(), 'creator');
    const started = await call({ method: 'POST', url: '/api/binding/jobs', payload: { kind: 'homework', homeworkId, classId } });
    expect(started.statusCode).toBe(200);
    const job = await finished(call, started.json().data.id);
    expect(job.status).toBe('done');
    expect(job.done).toBe(roster.length);
    expect(job.fileName).toBe(`${title}-${className}-装订.pdf`);

    const file = await call({ method: 'GET', url: `/api/binding/jobs/${job.id}/file` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/pdf');
    const pdf = await PDFDocument.load(file.rawPayload);
    // The cover (one page per 40 students) and one page per scanned sheet.
    const coverPages = Math.ceil((roster.length + 7) / 40);
    expect(pdf.getPageCount()).toBe(coverPages + 2);

    const mupdf = await import('mupdf');
    const doc = mupdf.Document.openDocument(file.rawPayload, 'application/pdf');
    let cover = '';
    for (let i = 0; i < coverPages; i += 1) cover += doc.loadPage(i).toStructuredText('preserve-whitespace').asText();
    expect(cover).toContain(title);
    expect(cover).toContain(`缺考：${roster[2]!.name}`);
    expect(cover).toContain('未扫描：');
    expect(cover).toContain(roster[3]!.name);
    const scores = await call({ method: 'GET', url: `/api/marking/homework/${homeworkId}/scores` });
    for (const student of scores.json().data.students.filter((s: { className: string }) => s.className === className)) {
      if (student.total !== null) expect(cover).toContain(String(student.total));
    }
    const first = doc.loadPage(coverPages).toStructuredText('preserve-whitespace').asText();
    expect(first).toContain(`${roster[0]!.code} ${roster[0]!.name}`);
    const second = doc
      .loadPage(coverPages + 1)
      .toStructuredText('preserve-whitespace')
      .asText();
    expect(second).toContain(`${roster[1]!.code} ${roster[1]!.name}`);
  });

  it('binds a term per student as a ZIP of one PDF each', async () => {
    const db = app().database.db;
    const [link] = await db.select().from(homeworkClasses).limit(1);
    const roster = await db.select().from(students).where(eq(students.classId, link!.classId));
    const call = await callerFor(app(), 'creator');
    const started = await call({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'students', classId: link!.classId, from: '2020-01-01', to: '2030-12-31', format: 'zip' },
    });
    expect(started.statusCode).toBe(200);
    const job = await finished(call, started.json().data.id);
    expect(job.status).toBe('done');
    const file = await call({ method: 'GET', url: `/api/binding/jobs/${job.id}/file` });
    const files = unzip(file.rawPayload);
    expect(files.size).toBe(roster.length);
    for (const pdf of files.values()) expect((await PDFDocument.load(pdf)).getPageCount()).toBeGreaterThanOrEqual(1);
  });

  it('answers 400 for bad input, 404 for another school or an unknown job, 403 for a teacher who may not see the class', async () => {
    const db = app().database.db;
    const [link] = await db.select().from(homeworkClasses).limit(1);
    const call = await callerFor(app(), 'creator');
    const bad = await call({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'homework', homeworkId: 'x', classId: 1 },
    });
    expect(bad.statusCode).toBe(400);
    const backwards = await call({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'students', classId: link!.classId, from: '2026-06-01', to: '2026-01-01', format: 'pdf' },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().msg).toContain('结束日期不能早于开始日期');
    expect((await call({ method: 'GET', url: `/api/binding/jobs/${randomUUID()}` })).statusCode).toBe(404);
    expect((await call({ method: 'GET', url: '/api/binding/jobs/nope' })).statusCode).toBe(400);

    const other = await createOtherSchool(app());
    const foreign = await other.call({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'homework', homeworkId: link!.homeworkId, classId: link!.classId },
    });
    expect(foreign.statusCode).toBe(404);
    // Another school's user cannot read this school's job either.
    const mine = await call({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'students', classId: link!.classId, from: '2020-01-01', to: '2030-12-31', format: 'pdf' },
    });
    expect((await other.call({ method: 'GET', url: `/api/binding/jobs/${mine.json().data.id}` })).statusCode).toBe(404);

    const { orgId } = await demoSchool(app());
    await addMember(app(), 'plain', orgId);
    const plain = await callerFor(app(), 'plain');
    const refused = await plain({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'homework', homeworkId: link!.homeworkId, classId: link!.classId },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe('很抱歉，您暂无该操作权限');
    const refusedTerm = await plain({
      method: 'POST',
      url: '/api/binding/jobs',
      payload: { kind: 'students', classId: link!.classId, from: '2020-01-01', to: '2030-12-31', format: 'pdf' },
    });
    expect(refusedTerm.statusCode).toBe(403);
  });
});
