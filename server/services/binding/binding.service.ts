/**
 * 装订 (paper binding): bound PDF booklets from stored scans (pdf-lib; images read through FileStorage, so
 * local disk or S3 alike). A job is a row of binding_jobs (status, progress, its validated input) and runs
 * in the background on the instance that started it; the page polls the row, so any instance answers. The
 * finished file goes to the file storage (binding/<org>/<job>.pdf|zip) and is kept a day. The running
 * instance moves the row's heartbeat on (its lease); when it stops (a restart, a crash), another instance
 * takes the job over and makes it again from its input, with the permissions of now: every instance looks
 * for such jobs when it starts and every BINDING_RESUME_MS after (resumeStale), and a poll of the job
 * does the same. Taking over is one conditional UPDATE (still running, lease expired), so of several
 * instances trying at once exactly one wins. Each job belongs to its user and school.
 *
 * Numbers: a student's total is the score table's (score-table.service.ts, the same as 成绩) and their
 * status comes from student-status.ts, so 缺考 and 未扫描 are named, never shown as 0.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, gte, inArray, isNotNull, lt, lte } from 'drizzle-orm';
import { zipSync } from 'fflate';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { BindingJob, BindingJobCreate } from '../../../src/shared/contract/binding';
import { STUDENT_STATUS_LABELS, type ScoreTable } from '../../../src/shared/contract/marking';
import type { Db } from '../../db/client';
import { bindingJobs, classes, homework, homeworkClasses, pageRecognitions, papers, scanPages, students } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { createSheetDocument, FAINT, INK, MmCanvas, PT_PER_MM } from '../answer-sheet/answer-sheet-pdf';
import { type Actor, assertWorksOn, loadActor, scopeAllows, visibleScope } from '../org/permissions';
import type { FileStorage } from '../storage/file-storage';

const PAGE = { w: 210, h: 297 };
/** The ideographic space between fields of a cover line. */
const GAP = '\u3000';
/** How long a finished job and its file are kept. */
export const BINDING_KEEP_MS = 24 * 60 * 60 * 1000;
/** How often the running instance moves a job's heartbeat on (besides each unit done). */
export const BINDING_HEARTBEAT_MS = 10_000;
/** A running job whose heartbeat is older than this has lost its instance: the next poll takes it over. */
export const BINDING_STALE_MS = 60_000;
/** How often an instance looks for running jobs whose instance stopped (see resumeStale). */
export const BINDING_RESUME_MS = 30_000;
/** Stale jobs taken over per look, so a backlog spreads over instances and looks. */
const RESUME_BATCH = 10;
const MAX_JOBS_PER_USER = 5;

type JobRow = typeof bindingJobs.$inferSelect;

type BindingResult = { file: Buffer; fileName: string; contentType: string };

/** A job checked and ready to run: what it makes, how many units, and the making. */
type PlannedJob = {
  title: string;
  total: number;
  run: (progress: (done: number) => Promise<void>) => Promise<BindingResult>;
};

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
  const at = (ms: number) => new Date(ms);

  /** Finished jobs older than BINDING_KEEP_MS go, with their files. */
  async function sweep() {
    const old = await db
      .delete(bindingJobs)
      .where(lt(bindingJobs.finishedAt, at(now() - BINDING_KEEP_MS)))
      .returning({ filePath: bindingJobs.filePath });
    for (const row of old) if (row.filePath) await storage.remove(row.filePath).catch(() => undefined);
  }

  function view(row: JobRow): BindingJob {
    return {
      id: row.id,
      status: row.status as BindingJob['status'],
      done: row.done,
      total: row.total,
      title: row.title,
      fileName: row.fileName,
      error: row.error,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function own(userId: number, orgId: number, id: string): Promise<JobRow> {
    const [row] = await db
      .select()
      .from(bindingJobs)
      .where(and(eq(bindingJobs.id, id), eq(bindingJobs.userId, userId), eq(bindingJobs.orgId, orgId)));
    if (!row || (row.finishedAt !== null && now() - row.finishedAt.getTime() > BINDING_KEEP_MS)) throw ApiError.notFound();
    return row;
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

  /**
   * Runs a planned job in the background on this instance: progress and the heartbeat go to its row, the
   * file to the storage, and the row ends done or failed. The request that started it has its answer.
   */
  function launch(id: number | string, orgId: number, plan: PlannedJob) {
    const jobId = String(id);
    const running = and(eq(bindingJobs.id, jobId), eq(bindingJobs.status, 'running'));
    const beat = setInterval(() => {
      void db
        .update(bindingJobs)
        .set({ heartbeatAt: at(now()) })
        .where(running)
        .catch(() => undefined);
    }, BINDING_HEARTBEAT_MS);
    beat.unref();
    const progress = async (done: number) => {
      await db
        .update(bindingJobs)
        .set({ done, heartbeatAt: at(now()) })
        .where(running);
    };
    setImmediate(() => {
      void (async () => {
        try {
          const result = await plan.run(progress);
          const filePath = `binding/${orgId}/${jobId}.${result.contentType === 'application/zip' ? 'zip' : 'pdf'}`;
          await storage.write(filePath, result.file);
          await db
            .update(bindingJobs)
            .set({
              status: 'done',
              done: plan.total,
              fileName: result.fileName,
              contentType: result.contentType,
              filePath,
              finishedAt: at(now()),
            })
            .where(running);
        } catch (error: unknown) {
          const message = error instanceof ApiError ? error.message : '生成装订文件时出错，请稍后重试';
          await db
            .update(bindingJobs)
            .set({ status: 'failed', error: `装订失败：${message}`, finishedAt: at(now()) })
            .where(running)
            .catch(() => undefined);
        } finally {
          clearInterval(beat);
        }
      })();
    });
  }

  async function plan(actor: Actor, input: BindingJobCreate): Promise<PlannedJob> {
    return input.kind === 'homework'
      ? homeworkBooklet(actor, input.homeworkId, input.classId)
      : studentsBooklet(actor, input as Extract<BindingJobCreate, { kind: 'students' }>);
  }

  /**
   * A running job whose instance stopped: this instance claims it (one claim wins, by the heartbeat) and
   * makes it again from its input, as its user may now; what its user may no longer do fails the job.
   */
  async function takeOver(row: JobRow): Promise<JobRow> {
    return (await claimAndRelaunch(row.id)) ?? row;
  }

  /** The claim and relaunch of takeOver; undefined when another instance (or a heartbeat) got there first. */
  async function claimAndRelaunch(id: string): Promise<JobRow | undefined> {
    const [claimed] = await db
      .update(bindingJobs)
      .set({ heartbeatAt: at(now()), done: 0 })
      .where(
        and(eq(bindingJobs.id, id), eq(bindingJobs.status, 'running'), lt(bindingJobs.heartbeatAt, at(now() - BINDING_STALE_MS))),
      )
      .returning();
    if (!claimed) return undefined;
    try {
      const planned = await plan(await loadActor(db, claimed.userId, claimed.orgId), claimed.input);
      await db.update(bindingJobs).set({ total: planned.total }).where(eq(bindingJobs.id, claimed.id));
      launch(claimed.id, claimed.orgId, planned);
      return { ...claimed, total: planned.total };
    } catch (error: unknown) {
      const message = error instanceof ApiError ? error.message : '生成装订文件时出错，请稍后重试';
      const [failed] = await db
        .update(bindingJobs)
        .set({ status: 'failed', error: `装订失败：${message}`, finishedAt: at(now()) })
        .where(eq(bindingJobs.id, claimed.id))
        .returning();
      return failed ?? claimed;
    }
  }

  async function homeworkBooklet(actor: Actor, homeworkId: number, classId: number): Promise<PlannedJob> {
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
    return {
      title: `${row.title} · ${klass.name}`,
      total: roster.length,
      run: async (progress) => {
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
        let done = 0;
        for (const student of roster) {
          const own = pages.get(`${homeworkId}:${student.studentId}`) ?? [];
          const score = student.total === null ? STUDENT_STATUS_LABELS[student.status] : `${student.total}/${fullScore} 分`;
          for (const page of own) {
            await addScan(doc, font, page, `${row.title} · ${klass.name} · ${student.code} ${student.name} · 总分 ${score}`);
          }
          await progress((done += 1));
        }
        const file = Buffer.from(await doc.save());
        return { file, fileName: `${row.title}-${klass.name}-装订.pdf`, contentType: 'application/pdf' };
      },
    };
  }

  async function studentsBooklet(actor: Actor, input: Extract<BindingJobCreate, { kind: 'students' }>): Promise<PlannedJob> {
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
    return {
      title: `${who} · ${input.from} 至 ${input.to}`,
      total: chosen.length,
      run: async (progress) => {
        const tables = await Promise.all(works.map((w) => scores.table(actor.userId, w.id)));
        const pages = await pagesOf(
          works.map((w) => w.id),
          chosen.map((s) => s.id),
        );
        const files: Record<string, Uint8Array> = {};
        const one = input.format === 'pdf' ? await createSheetDocument(`${who} 装订`, '装订') : null;
        let done = 0;
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
              await addScan(
                target.doc,
                target.font,
                page,
                `${sheet.title} · ${student.code} ${student.name} · 得分 ${sheet.line}`,
              );
            }
          }
          if (!one) files[`${student.code}-${student.name}.pdf`] = await target.doc.save();
          await progress((done += 1));
        }
        if (one) {
          return { file: Buffer.from(await one.doc.save()), fileName: `${who}-装订.pdf`, contentType: 'application/pdf' };
        }
        return { file: Buffer.from(zipSync(files, { level: 0 })), fileName: `${who}-装订.zip`, contentType: 'application/zip' };
      },
    };
  }

  return {
    /**
     * Takes over running jobs whose instance stopped (lease expired), oldest first, and makes them again
     * here; answers the ids this instance won. Safe to call from several instances at once.
     */
    async resumeStale(): Promise<string[]> {
      const stale = await db
        .select({ id: bindingJobs.id })
        .from(bindingJobs)
        .where(and(eq(bindingJobs.status, 'running'), lt(bindingJobs.heartbeatAt, at(now() - BINDING_STALE_MS))))
        .orderBy(asc(bindingJobs.heartbeatAt))
        .limit(RESUME_BATCH);
      const won: string[] = [];
      for (const { id } of stale) if (await claimAndRelaunch(id)) won.push(id);
      return won;
    },
    async create(userId: number, input: BindingJobCreate): Promise<BindingJob> {
      const actor = await loadActor(db, userId);
      await sweep();
      const [running] = await db
        .select({ value: count() })
        .from(bindingJobs)
        .where(and(eq(bindingJobs.userId, userId), eq(bindingJobs.status, 'running')));
      if ((running?.value ?? 0) >= MAX_JOBS_PER_USER) throw ApiError.badRequest('装订任务过多，请等待已有任务完成');
      const planned = await plan(actor, input);
      const [row] = await db
        .insert(bindingJobs)
        .values({
          id: randomUUID(),
          orgId: actor.orgId,
          userId,
          input,
          title: planned.title,
          total: planned.total,
          heartbeatAt: at(now()),
          createdAt: at(now()),
        })
        .returning();
      launch(row!.id, actor.orgId, planned);
      return view(row!);
    },
    async get(userId: number, id: string): Promise<BindingJob> {
      const actor = await loadActor(db, userId);
      const row = await own(userId, actor.orgId, id);
      const stale = row.status === 'running' && now() - row.heartbeatAt.getTime() > BINDING_STALE_MS;
      return view(stale ? await takeOver(row) : row);
    },
    async file(userId: number, id: string): Promise<BindingResult> {
      const actor = await loadActor(db, userId);
      const row = await own(userId, actor.orgId, id);
      if (row.status !== 'done' || !row.filePath || !row.fileName) throw ApiError.badRequest('装订文件尚未生成');
      const file = await storage.read(row.filePath).catch(() => {
        throw ApiError.notFound();
      });
      return { file, fileName: row.fileName, contentType: row.contentType ?? 'application/pdf' };
    },
  };
}
