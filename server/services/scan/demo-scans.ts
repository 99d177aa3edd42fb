/**
 * The demo homework that goes through the real scan path (DEMO_SCANNED_HOMEWORK, seeded by
 * seed-papers.ts): after the server starts, its students' answer sheets are drawn by the simulated
 * scanner's own drawing code (simulated-scan-pages.ts), stored as scan pages through the scan service
 * like a station's upload, recognised by the engine through the recognition queue (which scores the
 * objective answers), and then the homework's owner marks part of the hand-marked answers through the
 * marking service. So a fresh `npm start` shows real answer images in /correct, /write and the
 * commentary. Runs in the background (drawing and recognising a class takes longer than the seed may);
 * resumes where it stopped after a restart: image ids are derived from the student and page, stored
 * pages are skipped, marked answers are not marked again.
 */
import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, isNotNull } from 'drizzle-orm';
import sharp from 'sharp';
import type { AnswerSheetSpec, AnswerSheetTemplate } from '../../../src/shared/contract/answer-sheet';
import { handwriting, seededRandom, type SimulatedSheetPage } from '../../../src/shared/lib/simulated-scan';
import type { Db } from '../../db/client';
import { homework, homeworkClasses, markingTasks, orgs, scanBatches, scanPages, students } from '../../db/schema';
import { DEMO_SCHOOL_NAME } from '../../db/seed';
import { DEMO_SCANNED_HOMEWORK } from '../../db/seed-papers';
import type { MarkingContextLoader } from '../marking/marking-context';
import { PENDING_STATUSES } from '../marking/marking-progress';
import type { PaperService } from '../papers/paper.service';
import { answerSheetSpecOf } from '../papers/homework.service';
import type { ScanService } from './scan.service';
import { simulatedScanJpeg } from './simulated-scan-pages';

/** The scan batch's station name (扫描站名称). */
export const DEMO_STATION_NAME = '演示扫描（答题卡）';
/** Share of each hand-marked question's answers the owner marks (the rest are left for the visitor). */
export const DEMO_MARKED_SHARE = 0.7;
const WAIT_STEP_MS = 1000;
const WAIT_LIMIT_MS = 15 * 60_000;

export type DemoScanDeps = {
  db: Db;
  scan: Pick<ScanService, 'createBatch' | 'storePage'>;
  contexts: MarkingContextLoader;
  papers: Pick<PaperService, 'detailOf'>;
  marking: {
    next(userId: number, homeworkId: number, questionNo: number): Promise<{ taskId: number } | null>;
    score(userId: number, taskId: number, input: { score: number }): Promise<unknown>;
  };
  log: { info: (msg: string) => void };
  /** Whether to keep going (false once the app is closing). */
  running?: () => boolean;
  /** Only the first students of the roster (tests). */
  maxStudents?: number;
};

/** A stable UUID (v5 layout) for a name: the same student's page has the same image id on every run. */
export function demoImageId(name: string): string {
  const hex = createHash('sha1').update(`smart-homework-demo-scan:${name}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** How likely a student answers right, from their place in the class: spread from about 0.35 to 0.95. */
function abilityOf(code: string): number {
  const random = seededRandom(Number(code.slice(-6)) || 1);
  return 0.35 + 0.6 * random();
}

/** One student's sheet page: answers by ability (a right key or a wrong option), handwriting in the regions. */
export function demoSheetPage(
  template: AnswerSheetTemplate,
  pageIndex: number,
  student: { name: string; code: string },
  keys: ReadonlyMap<number, readonly string[]>,
): SimulatedSheetPage {
  const page = template.pages[pageIndex]!;
  const random = seededRandom(Number(student.code.slice(-6)) * 31 + pageIndex + 7);
  const ability = abilityOf(student.code);
  const filled = page.objective.flatMap((q) => {
    if (random() < 0.03) return [];
    const labels = q.options.map((o) => o.label);
    const key = [...(keys.get(q.questionNo) ?? [])];
    if (random() < ability && key.length > 0) {
      // A multiple-choice answer now and then a correct subset (partial credit).
      if (q.type === 'multiple' && key.length > 1 && random() < 0.3)
        return [{ questionNo: q.questionNo, labels: key.slice(0, -1) }];
      return [{ questionNo: q.questionNo, labels: key }];
    }
    const wrong = labels.filter((l) => !key.includes(l));
    const pick = wrong[Math.floor(random() * wrong.length)] ?? labels[0]!;
    if (q.type === 'multiple' && key.length > 0) return [{ questionNo: q.questionNo, labels: [key[0]!, pick].sort() }];
    return [{ questionNo: q.questionNo, labels: [pick] }];
  });
  return {
    kind: 'sheet',
    homeworkId: template.homeworkId,
    pageIndex,
    student,
    filled,
    strokes: page.regions.filter(() => random() < 0.95).flatMap((region) => handwriting(region, random)),
    rotationDeg: (random() - 0.5) * 2.5,
    upsideDown: random() < 0.1,
    noiseSeed: Math.floor(random() * 2 ** 31),
  };
}

async function findDemoHomework(db: Db) {
  const [row] = await db
    .select({ homework })
    .from(homework)
    .innerJoin(orgs, eq(orgs.id, homework.orgId))
    .where(and(eq(orgs.name, DEMO_SCHOOL_NAME), eq(homework.title, DEMO_SCANNED_HOMEWORK.title)))
    .orderBy(asc(homework.id))
    .limit(1);
  return row?.homework ?? null;
}

/**
 * Scans the demo homework's sheets and marks part of its hand-marked answers, if the demo school has
 * that homework and it is not done yet. Answers what it did.
 */
export async function runDemoScans(deps: DemoScanDeps): Promise<{ stored: number; marked: number }> {
  const { db } = deps;
  const running = deps.running ?? (() => true);
  const row = await findDemoHomework(db);
  if (!row || row.createdBy === null) return { stored: 0, marked: 0 };
  const ownerId = row.createdBy;
  const context = await deps.contexts.forHomework(row.orgId, row.id);
  if (!context?.template) return { stored: 0, marked: 0 };
  const template = context.template;
  const spec: AnswerSheetSpec = answerSheetSpecOf(row, await deps.papers.detailOf(row.paperId));
  const keys = new Map([...context.questions.values()].filter((q) => !q.manual).map((q) => [q.no, q.key]));

  const classIds = (await db.select().from(homeworkClasses).where(eq(homeworkClasses.homeworkId, row.id))).map((c) => c.classId);
  const roster =
    classIds.length === 0
      ? []
      : await db
          .select({ name: students.name, code: students.code })
          .from(students)
          .where(inArray(students.classId, classIds))
          .orderBy(asc(students.code))
          .limit(deps.maxStudents ?? 10_000);

  const pages = roster.flatMap((student) => template.pages.map((_, pageIndex) => ({ student, pageIndex })));
  const imageIds = pages.map((p) => demoImageId(`${row.id}:${p.student.code}:${p.pageIndex}`));
  const stored = new Set(
    imageIds.length === 0
      ? []
      : (await db.select({ imageId: scanPages.imageId }).from(scanPages).where(inArray(scanPages.imageId, imageIds))).map(
          (p) => p.imageId,
        ),
  );
  let storedNow = 0;
  if (stored.size < pages.length) {
    const [existing] = await db
      .select({ id: scanBatches.id })
      .from(scanBatches)
      .where(and(eq(scanBatches.homeworkId, row.id), eq(scanBatches.stationName, DEMO_STATION_NAME)))
      .limit(1);
    const batchId =
      existing?.id ?? (await deps.scan.createBatch(ownerId, { homeworkId: row.id, stationName: DEMO_STATION_NAME })).id;
    deps.log.info(`demo scans: drawing ${pages.length - stored.size} answer-sheet pages of 「${row.title}」`);
    for (const [i, { student, pageIndex }] of pages.entries()) {
      if (!running()) return { stored: storedNow, marked: 0 };
      if (stored.has(imageIds[i]!)) continue;
      const jpeg = await simulatedScanJpeg(demoSheetPage(template, pageIndex, student, keys), template, spec);
      const { width = 1, height = 1 } = await sharp(jpeg).metadata();
      await deps.scan.storePage(
        ownerId,
        { batchId, imageId: imageIds[i]!, sequence: i + 1, scanSubject: true, width, height },
        jpeg,
      );
      storedNow += 1;
    }
  }

  // Recognition runs in the queue; the hand-marked answers exist once it has settled the pages.
  const started = Date.now();
  for (;;) {
    const [pending] = await db
      .select({ n: count() })
      .from(scanPages)
      .where(and(eq(scanPages.homeworkId, row.id), inArray(scanPages.status, [...PENDING_STATUSES])));
    if ((pending?.n ?? 0) === 0) break;
    if (!running() || Date.now() - started > WAIT_LIMIT_MS) return { stored: storedNow, marked: 0 };
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }

  let marked = 0;
  for (const question of [...context.questions.values()].filter((q) => q.manual)) {
    const [total] = await db
      .select({ n: count() })
      .from(markingTasks)
      .where(and(eq(markingTasks.homeworkId, row.id), eq(markingTasks.questionNo, question.no)));
    const [done] = await db
      .select({ n: count() })
      .from(markingTasks)
      .where(and(eq(markingTasks.homeworkId, row.id), eq(markingTasks.questionNo, question.no), isNotNull(markingTasks.score)));
    let left = Math.floor((total?.n ?? 0) * DEMO_MARKED_SHARE) - (done?.n ?? 0);
    const random = seededRandom(row.id * 100 + question.no);
    while (left > 0 && running()) {
      const task = await deps.marking.next(ownerId, row.id, question.no);
      if (!task) break;
      // Scores in half points, most of them in the upper half.
      const share = Math.min(1, Math.max(0, 0.35 + 0.65 * random() ** 0.7));
      await deps.marking.score(ownerId, task.taskId, { score: Math.round(share * question.score * 2) / 2 });
      left -= 1;
      marked += 1;
    }
  }
  if (storedNow > 0 || marked > 0) deps.log.info(`demo scans: ${storedNow} pages stored, ${marked} answers marked`);
  return { stored: storedNow, marked };
}
