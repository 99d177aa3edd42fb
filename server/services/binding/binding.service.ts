/**
 * 装订 (paper binding): bound PDF booklets from stored scans (pdf-lib; images read through FileStorage, so
 * local disk or S3 alike). Jobs run in the background in an in-memory registry: a booklet takes seconds to
 * a minute, the page polls its progress, and the finished file is kept in memory for an hour to be
 * downloaded. Nothing is persisted: after a restart the page's job is gone and the teacher starts it again
 * (a job table would only keep a row whose file no longer exists). Each job belongs to its user and school.
 *
 * Numbers: a student's total is the score table's (score-table.service.ts, the same as 成绩) and their
 * status comes from student-status.ts, so 缺考 and 未扫描 are named, never shown as 0.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNotNull, lte } from 'drizzle-orm';
import { zipSync } from 'fflate';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { BindingJob, BindingJobCreate } from '../../../src/shared/contract/binding';
import { STUDENT_STATUS_LABELS, type ScoreTable } from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import { classes, homework, homeworkClasses, pageRecognitions, papers, scanPages, students } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { createSheetDocument, FAINT, INK, MmCanvas, PT_PER_MM } from '../answer-sheet/answer-sheet-pdf';
import { type Actor, assertWorksOn, loadActor, scopeAllows, visibleScope } from '../org/permissions';
import type { FileStorage } from '../storage/file-storage';

const PAGE = { w: 210, h: 297 };
/** The ideographic space between fields of a cover line. */
const GAP = '\u3000';
const KEEP_MS = 60 * 60 * 1000;
const MAX_JOBS_PER_USER = 5;

type Job = BindingJob & { userId: number; orgId: number; file: Buffer | null; contentType: string; finishedAt: number | null };

type ScoreTables = { table(userId: number, homeworkId: number): Promise<ScoreTable> };

type SheetPage = { storedPath: string; pageNo: number | null };

type StampedHomework = { title: string; date: string; line: string; pages: SheetPage[] };

export type BindingService = ReturnType<typeof createBindingService>;

export function createBindingService({
  db,
  storage,
  scores,
  now = () => Date.now(),
}: {
  db: Db;
  storage: FileStorage;
  scores: ScoreTables;
  now?: () => number;
}) {
  const jobs = new Map<string, Job>();

  function sweep() {
    const t = now();
    for (const [id, job] of jobs) if (job.finishedAt !== null && t - job.finishedAt > KEEP_MS) jobs.delete(id);
  }

  function view(job: Job): BindingJob {
    const { id, status, done, total, title, fileName, error, createdAt } = job;
    return { id, status, done, total, title, fileName, error, createdAt };
  }

  function own(userId: number, orgId: number, id: string): Job {
    sweep();
    const job = jobs.get(id);
    if (!job || job.userId !== userId || job.orgId !== orgId) throw ApiError.notFound();
    return job;
  }

  /** The class (of the actor's school) and its school year's scope; 404 for another school's class. */
  async function loadClass(actor: Actor, classId: number) {
    const [row] = await db
      .select({ id: classes.id, name: classes.name, pid: classes.pid })
      .from(classes)
      .where(and(eq(classes.id, classId), eq(classes.orgId, actor.orgId)));
    if (!row || row.pid === null) throw ApiError.notFound();
    return { ...row, scope: await visibleScope(db, actor, row.pid) };
  }

  /** Scanned pages of a homework that count for a student, by student, in page order. */
  async function pagesOf(homeworkIds: number[], studentIds: number[]): Promise<Map<string, SheetPage[]>> {
    const out = new Map<string, SheetPage[]>();
    if (homeworkIds.length === 0 || studentIds.length === 0) return out;
    const rows = await db
      .select({
        homeworkId: pageRecognitions.homeworkId,
        studentId: pageRecognitions.studentId,
        pageNo: pageRecognitions.pageNo,
        storedPath: scanPages.storedPath,
      })
      .from(pageRecognitions)
      .innerJoin(scanPages, eq(scanPages.id, pageRecognitions.scanPageId))
      .where(
        and(
          inArray(pageRecognitions.homeworkId, homeworkIds),
          inArray(pageRecognitions.studentId, studentIds),
          isNotNull(pageRecognitions.studentId),
        ),
      )
      .orderBy(asc(pageRecognitions.pageNo), asc(scanPages.sequence));
    for (const row of rows) {
      const key = `${row.homeworkId}:${row.studentId}`;
      const list = out.get(key) ?? [];
      list.push({ storedPath: row.storedPath, pageNo: row.pageNo });
      out.set(key, list);
    }
    return out;
  }

  /** Adds a scanned page, fitted to A4, with a stamp line at its top; a missing or unreadable image says so. */
  async function addScan(doc: PDFDocument, font: PDFFont, page: SheetPage, stamp: string) {
    const pdfPage = doc.addPage([PAGE.w * PT_PER_MM, PAGE.h * PT_PER_MM]);
    const canvas = new MmCanvas(pdfPage, PAGE.h, font);
    const top = 10;
    try {
      const bytes = await storage.read(page.storedPath);
      const image = bytes[0] === 0x89 && bytes[1] === 0x50 ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
      const maxW = PAGE.w * PT_PER_MM - 16;
      const maxH = (PAGE.h - top - 6) * PT_PER_MM;
      const scale = Math.min(maxW / image.width, maxH / image.height);
      const w = image.width * scale;
      const h = image.height * scale;
      pdfPage.drawImage(image, { x: (PAGE.w * PT_PER_MM - w) / 2, y: maxH - h + 4, width: w, height: h });
    } catch {
      canvas.text('（扫描图片已不存在或无法读取）', PAGE.w / 2, PAGE.h / 2, 5, 'middle', FAINT);
    }
    canvas.text(stamp, 8, 7, 3.6, 'start', INK);
  }

  type CoverLine = { text: string; size?: number; tone?: 'ink' | 'faint'; cols?: string[] };
  const COLS_MM = [20, 60, 105, 135];

  function coverPage(doc: PDFDocument, font: PDFFont, lines: CoverLine[]) {
    let canvas = new MmCanvas(doc.addPage([PAGE.w * PT_PER_MM, PAGE.h * PT_PER_MM]), PAGE.h, font);
    let y = 24;
    let onPage = 0;
    for (const line of lines) {
      const size = line.size ?? 4;
      // At most 40 lines a page, so a class of 45 takes two.
      if (onPage === 40 || y + size * 1.6 > PAGE.h - 12) {
        onPage = 0;
        canvas = new MmCanvas(doc.addPage([PAGE.w * PT_PER_MM, PAGE.h * PT_PER_MM]), PAGE.h, font);
        y = 24;
      }
      const tone = line.tone === 'faint' ? FAINT : INK;
      if (line.cols) line.cols.forEach((col, i) => canvas.text(col, COLS_MM[i]!, y, size, 'start', tone, 38));
      else canvas.text(line.text, 20, y, size, 'start', tone, PAGE.w - 40);
      y += size * 1.6;
      onPage += 1;
    }
  }

  function start(
    actor: Actor,
    title: string,
    total: number,
    run: (job: Job) => Promise<{ file: Buffer; fileName: string; contentType: string }>,
  ) {
    sweep();
    const running = [...jobs.values()].filter((j) => j.userId === actor.userId && j.status === 'running');
    if (running.length >= MAX_JOBS_PER_USER) throw ApiError.badRequest('装订任务过多，请等待已有任务完成');
    const job: Job = {
      id: randomUUID(),
      status: 'running',
      done: 0,
      total,
      title,
      fileName: null,
      error: null,
      createdAt: new Date(now()).toISOString(),
      userId: actor.userId,
      orgId: actor.orgId,
      file: null,
      contentType: 'application/pdf',
      finishedAt: null,
    };
    jobs.set(job.id, job);
    // Runs after the answer: the page polls.
    setImmediate(() => {
      run(job)
        .then((result) => {
          Object.assign(job, { ...result, status: 'done', done: job.total, finishedAt: now() });
        })
        .catch((error: unknown) => {
          const message = error instanceof ApiError ? error.message : '生成装订文件时出错，请稍后重试';
          Object.assign(job, { status: 'failed', error: `装订失败：${message}`, finishedAt: now() });
        });
    });
    return job;
  }

  async function homeworkBooklet(actor: Actor, homeworkId: number, classId: number) {
    const [row] = await db
      .select({
        id: homework.id,
        title: homework.title,
        createdBy: homework.createdBy,
        paperId: homework.paperId,
        startDate: homework.startDate,
        subjectId: papers.subjectId,
      })
      .from(homework)
      .innerJoin(papers, eq(papers.id, homework.paperId))
      .where(and(eq(homework.id, homeworkId), eq(homework.orgId, actor.orgId)));
    if (!row) throw ApiError.notFound();
    const klass = await loadClass(actor, classId);
    const [assigned] = await db
      .select({ id: homeworkClasses.classId })
      .from(homeworkClasses)
      .where(and(eq(homeworkClasses.homeworkId, homeworkId), eq(homeworkClasses.classId, classId)));
    if (!assigned) throw ApiError.badRequest('该班级没有布置这份作业');
    if (!scopeAllows(klass.scope, classId, row.subjectId)) await assertWorksOn(db, actor, row);
    const table = await scores.table(actor.userId, homeworkId);
    const roster = table.students.filter((s) => s.className === klass.name);
    const fullScore = table.questions.reduce((sum, q) => sum + q.score, 0);
    return start(actor, `${row.title} · ${klass.name}`, roster.length, async (job) => {
      const { doc, font } = await createSheetDocument(`${row.title} ${klass.name} 装订`, '装订');
      const absent = roster.filter((s) => s.status === 'absent').map((s) => s.name);
      const unscanned = roster.filter((s) => s.status === 'unscanned').map((s) => s.name);
      coverPage(doc, font, [
        { text: `${row.title}`, size: 7 },
        { text: `班级：${klass.name}${GAP}布置日期：${row.startDate}${GAP}满分：${fullScore}`, size: 4.2 },
        { text: `学生 ${roster.length} 人${GAP}缺考 ${absent.length} 人${GAP}未扫描 ${unscanned.length} 人`, size: 4.2 },
        { text: `缺考：${absent.length > 0 ? absent.join('、') : '无'}`, size: 4.2 },
        { text: `未扫描：${unscanned.length > 0 ? unscanned.join('、') : '无'}`, size: 4.2 },
        { text: ' ', size: 3 },
        { text: '', size: 4, tone: 'faint', cols: ['学号', '姓名', '总分', '状态'] },
        ...roster.map((s) => ({
          text: '',
          size: 4,
          cols: [s.code, s.name, s.total === null ? '—' : String(s.total), STUDENT_STATUS_LABELS[s.status]],
        })),
      ]);
      const pages = await pagesOf(
        [homeworkId],
        roster.map((s) => s.studentId),
      );
      for (const student of roster) {
        const own = pages.get(`${homeworkId}:${student.studentId}`) ?? [];
        const score = student.total === null ? STUDENT_STATUS_LABELS[student.status] : `${student.total}/${fullScore} 分`;
        for (const page of own) {
          await addScan(doc, font, page, `${row.title} · ${klass.name} · ${student.code} ${student.name} · 总分 ${score}`);
        }
        job.done += 1;
      }
      const file = Buffer.from(await doc.save());
      return { file, fileName: `${row.title}-${klass.name}-装订.pdf`, contentType: 'application/pdf' };
    });
  }

  async function studentsBooklet(actor: Actor, input: Extract<BindingJobCreate, { kind: 'students' }>) {
    const klass = await loadClass(actor, input.classId);
    if (!scopeAllows(klass.scope, klass.id)) throw ApiError.forbidden();
    const roster = await db
      .select({ id: students.id, name: students.name, code: students.code })
      .from(students)
      .where(and(eq(students.orgId, actor.orgId), eq(students.classId, klass.id)))
      .orderBy(asc(students.code));
    const chosen = input.studentId === undefined ? roster : roster.filter((s) => s.id === input.studentId);
    if (chosen.length === 0) throw input.studentId === undefined ? ApiError.badRequest('该班级没有学生') : ApiError.notFound();
    const works = (
      await db
        .select({ id: homework.id, title: homework.title, startDate: homework.startDate, subjectId: papers.subjectId })
        .from(homework)
        .innerJoin(papers, eq(papers.id, homework.paperId))
        .innerJoin(homeworkClasses, eq(homeworkClasses.homeworkId, homework.id))
        .where(
          and(
            eq(homework.orgId, actor.orgId),
            eq(homeworkClasses.classId, klass.id),
            gte(homework.startDate, input.from),
            lte(homework.startDate, input.to),
          ),
        )
        .orderBy(asc(homework.startDate), asc(homework.id))
    ).filter((w) => scopeAllows(klass.scope, klass.id, w.subjectId));
    const who = input.studentId === undefined ? klass.name : `${klass.name} ${chosen[0]!.name}`;
    return start(actor, `${who} · ${input.from} 至 ${input.to}`, chosen.length, async (job) => {
      const tables = await Promise.all(works.map((w) => scores.table(actor.userId, w.id)));
      const pages = await pagesOf(
        works.map((w) => w.id),
        chosen.map((s) => s.id),
      );
      const files: Record<string, Uint8Array> = {};
      const one = input.format === 'pdf' ? await createSheetDocument(`${who} 装订`, '装订') : null;
      for (const student of chosen) {
        const target = one ?? (await createSheetDocument(`${student.name} 装订`, '装订'));
        const sheets: StampedHomework[] = works.map((w, i) => {
          const table = tables[i]!;
          const full = table.questions.reduce((sum, q) => sum + q.score, 0);
          const row = table.students.find((s) => s.studentId === student.id);
          const line = !row ? '—' : row.total === null ? STUDENT_STATUS_LABELS[row.status] : `${row.total}/${full} 分`;
          return { title: w.title, date: w.startDate, line, pages: pages.get(`${w.id}:${student.id}`) ?? [] };
        });
        coverPage(target.doc, target.font, [
          { text: `${student.name}${GAP}${student.code}`, size: 7 },
          { text: `班级：${klass.name}${GAP}${input.from} 至 ${input.to}`, size: 4.2 },
          { text: ' ', size: 3 },
          ...(sheets.length === 0
            ? [{ text: '该时段没有作业', size: 4 }]
            : sheets.map((s) => ({
                text: `${s.date}${GAP}${s.title}${GAP}${s.line}${s.pages.length === 0 ? '（无扫描）' : ''}`,
                size: 4,
              }))),
        ]);
        for (const sheet of sheets) {
          for (const page of sheet.pages) {
            await addScan(target.doc, target.font, page, `${sheet.title} · ${student.code} ${student.name} · 得分 ${sheet.line}`);
          }
        }
        if (!one) files[`${student.code}-${student.name}.pdf`] = await target.doc.save();
        job.done += 1;
      }
      if (one) {
        return { file: Buffer.from(await one.doc.save()), fileName: `${who}-装订.pdf`, contentType: 'application/pdf' };
      }
      return { file: Buffer.from(zipSync(files, { level: 0 })), fileName: `${who}-装订.zip`, contentType: 'application/zip' };
    });
  }

  return {
    async create(userId: number, input: BindingJobCreate): Promise<BindingJob> {
      const actor = await loadActor(db, userId);
      const job =
        input.kind === 'homework'
          ? await homeworkBooklet(actor, input.homeworkId, input.classId)
          : await studentsBooklet(actor, input);
      return view(job);
    },
    async get(userId: number, id: string): Promise<BindingJob> {
      const actor = await loadActor(db, userId);
      return view(own(userId, actor.orgId, id));
    },
    async file(userId: number, id: string): Promise<{ file: Buffer; fileName: string; contentType: string }> {
      const actor = await loadActor(db, userId);
      const job = own(userId, actor.orgId, id);
      if (job.status !== 'done' || !job.file || !job.fileName) throw ApiError.badRequest('装订文件尚未生成');
      return { file: job.file, fileName: job.fileName, contentType: job.contentType };
    },
  };
}
