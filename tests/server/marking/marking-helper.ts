/**
 * Test kit for recognition, review and marking: an app built with a fake recognition engine (scripted
 * readings per image, read against the template the server resolves), a homework with one question of
 * every type and a known answer key, distinct real JPEG pages, uploads through the scan endpoints, and
 * a recorder of the socket.io events the app broadcasts.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { AnswerSheetTemplate, SheetQrPayload } from '../../../src/shared/contract/answer-sheet';
import { type ReviewItem, reviewItemSchema } from '../../../src/shared/contract/marking';
import type {
  ObjectiveReading,
  PageCalibration,
  PageReading,
  RecognitionProblem,
} from '../../../src/shared/contract/recognition';
import { scanBatchSchema } from '../../../src/shared/contract/scan-upload';
import { buildApp } from '../../../server/app';
import type { DatabaseOptions } from '../../../server/db/client';
import {
  classes,
  homework,
  homeworkClasses,
  memberships,
  paperQuestions,
  papers,
  paperSections,
  questions,
  students,
  subjects,
  users,
} from '../../../server/db/schema';
import { DEMO_PASSWORD } from '../../../server/db/seed';
import { hashPassword } from '../../../server/services/auth/password-hasher';
import type {
  RecognitionEngine,
  RecognitionResult,
  TemplateResolver,
} from '../../../server/services/recognition/recognition-engine';
import { bearer, loginAs } from '../accounts-helper';
import { testDatabaseOptions } from '../helper';
import { createOtherSchool } from '../papers/papers-helper';
import { createBatch, uploadPage } from '../scan/scan-helper';
import { testAppConfig } from '../../support/test-app-config';

// ---- the fake engine ------------------------------------------------------------------------------

/** What the fake engine "reads" off one page. */
export type FakeSheet = {
  /** The QR payload, or null for an unreadable QR. */
  qr: SheetQrPayload | null;
  /** Marked labels per objective question number (absent: nothing marked). */
  marks?: Record<number, string[]>;
  /** Confidence per question (default 0.97). */
  confidence?: Record<number, number>;
  /** Extra problems the engine reports. */
  problems?: RecognitionProblem[];
  /** The engine throws on this page. */
  fail?: boolean;
  /** Objective questions the engine leaves out of its reading. */
  unread?: number[];
  /** The page's calibration, for the other pages of the student's sheet (sheet-calibration.ts). */
  calibration?: PageCalibration;
};

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export class FakeEngine implements RecognitionEngine {
  readonly sheets = new Map<string, FakeSheet>();
  /** Template homework the resolver gave per call (null: none). */
  readonly resolved: (number | null)[] = [];
  calls = 0;
  closed = false;
  /** When set, every recognize waits for it. */
  gate: Promise<void> | null = null;
  /** Milliseconds each page takes. */
  delayMs = 0;

  script(image: Buffer, sheet: FakeSheet) {
    this.sheets.set(sha(image), sheet);
  }

  async recognize(image: Buffer, resolveTemplate: TemplateResolver): Promise<RecognitionResult> {
    this.calls += 1;
    if (this.gate) await this.gate;
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const sheet = this.sheets.get(sha(image));
    if (!sheet) throw new Error('fake engine: image not scripted');
    if (sheet.fail) throw new Error('fake engine: this page breaks the engine');
    const template = await resolveTemplate(sheet.qr);
    this.resolved.push(template?.homeworkId ?? null);
    return fakeResult(sheet, template);
  }

  async close() {
    this.closed = true;
  }
}

let regionJpeg: Buffer | undefined;

function fakeResult(sheet: FakeSheet, template: AnswerSheetTemplate | null): RecognitionResult {
  const pageNo = sheet.qr?.page ?? 1;
  const page = template?.pages.find((p) => p.page === pageNo) ?? null;
  const read = (page?.objective ?? []).filter((q) => !sheet.unread?.includes(q.questionNo));
  const objective: ObjectiveReading[] = read.map((q) => {
    const marked = sheet.marks?.[q.questionNo] ?? [];
    return {
      questionNo: q.questionNo,
      fills: q.options.map((o) => ({ label: o.label, fill: marked.includes(o.label) ? 0.9 : 0.05 })),
      marked,
      confidence: sheet.confidence?.[q.questionNo] ?? 0.97,
    };
  });
  const problems: RecognitionProblem[] = [...(sheet.problems ?? [])];
  if (!sheet.qr) problems.push({ kind: 'qrUnreadable' });
  const reading: PageReading = {
    qr: sheet.qr,
    qrText: sheet.qr ? JSON.stringify(sheet.qr) : null,
    rotation: 0,
    transform: page ? { a: 11.8, b: 0, c: 0, d: 11.8, e: 0, f: 0 } : null,
    scale: 1,
    skewDeg: 0,
    objective,
    regions: (page?.regions ?? []).map((r) => ({ questionNo: r.questionNo, kind: r.kind, width: 40, height: 20, ink: 0.1 })),
    confidence: Math.min(0.97, ...objective.map((o) => o.confidence)),
    problems,
    elapsedMs: 1,
    ...(sheet.calibration ? { calibration: sheet.calibration } : {}),
  };
  return {
    reading,
    regions: (page?.regions ?? []).map((r) => ({ questionNo: r.questionNo, kind: r.kind, jpeg: regionJpeg! })),
  };
}

// ---- apps -------------------------------------------------------------------------------------------

export type MarkingApp = { app: FastifyInstance; dataDir: string; close: () => Promise<void> };

/**
 * The real app with `engine` (default: the real engine). `stopped`: the recognition queue does not run,
 * so stored pages wait. `shared` reuses a data folder and database (a restart); otherwise both are fresh
 * and removed on close.
 */
export async function createMarkingApp(
  options: {
    engine?: RecognitionEngine;
    stopped?: boolean;
    shared?: { dataDir: string; database: DatabaseOptions };
    /** Any other configuration value (the file storage...). */
    config?: Partial<Parameters<typeof buildApp>[0]['config']>;
  } = {},
): Promise<MarkingApp> {
  const dataDir = options.shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sh-marking-'));
  const fresh = options.shared ? null : testDatabaseOptions();
  const database = options.shared?.database ?? fresh!.options;
  const app = await buildApp({
    config: testAppConfig(dataDir, options.config),
    database,
  });
  if (options.engine) app.marking.useEngine(options.engine);
  if (options.stopped) app.marking.queue.disable();
  // A page the (fake) engine cannot read is retried at once, not after the production backoff.
  app.marking.queue.setRetryBackoff(0);
  await app.ready();
  regionJpeg ??= await pageJpeg(9999);
  return {
    app,
    dataDir,
    close: async () => {
      await app.close();
      if (fresh) {
        await fresh.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A database that outlives one app: PGlite in a folder, or one PostgreSQL schema. */
export function persistentDatabase(dataDir: string): { database: DatabaseOptions; drop: () => Promise<void> } {
  const { options, drop } = testDatabaseOptions();
  if (options.kind === 'postgres') return { database: options, drop };
  return { database: { kind: 'pglite', dataDir: path.join(dataDir, 'pgdata') }, drop };
}

/**
 * The app most marking test files start from: the real app with the fake `engine`, the demo school's
 * math teacher logged in, and another school (whose data must answer 404).
 */
export async function markingSchool(engine: FakeEngine) {
  const handle = await createMarkingApp({ engine });
  const teacher = await callerFor(handle.app, 'teacher');
  const other = await createOtherSchool(handle.app);
  return { handle, teacher, other };
}

// ---- requests -----------------------------------------------------------------------------------------

export type Caller = ((options: InjectOptions) => Promise<LightMyRequestResponse>) & {
  token: string;
  userId: number;
  /** The caller's default school. */
  orgId: number;
};

export async function callerFor(app: FastifyInstance, username: string): Promise<Caller> {
  const login = await loginAs(app, username);
  const call = (options: InjectOptions) =>
    app.inject({ ...options, headers: { ...bearer(login.access_token), ...options.headers } });
  return Object.assign(call, {
    token: login.access_token,
    userId: login.user.id,
    orgId: login.user.userGradeInfo.orgDefaultId ?? 0,
  });
}

/** The `data` of a successful envelope. */
export function data<T = unknown>(response: LightMyRequestResponse): T {
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as T;
}

/** The review items of a homework as the teacher's review list shows them (open or resolved). */
export async function reviewItemsFor(
  caller: Caller,
  homeworkId: number,
  status: 'open' | 'resolved' = 'open',
): Promise<ReviewItem[]> {
  const items = data<unknown[]>(
    await caller({ method: 'GET', url: `/api/marking/homework/${homeworkId}/review?status=${status}` }),
  );
  return items.map((item) => reviewItemSchema.parse(item));
}

/** Another teacher of the demo school (or of `orgId`), logged in. */
export async function addTeacher(app: FastifyInstance, username: string, nickname: string, orgId: number): Promise<Caller> {
  const db = app.database.db;
  const [user] = await db
    .insert(users)
    .values({ username, nickname, passwordHash: await hashPassword(DEMO_PASSWORD), defaultOrgId: orgId })
    .returning();
  await db.insert(memberships).values({ orgId, userId: user!.id, role: 'teacher' });
  return callerFor(app, username);
}

// ---- a homework with a known key -----------------------------------------------------------------------

export type QuestionSpec = { type: 'single' | 'multiple' | 'judge' | 'blank' | 'subjective'; answer: string[]; score: number };

/** 1 single B (3), 2 multiple A C (4), 3 judge 对 (2), 4 blank (4), 5 subjective (10). */
export const STANDARD_PAPER: QuestionSpec[] = [
  { type: 'single', answer: ['B'], score: 3 },
  { type: 'multiple', answer: ['A', 'C'], score: 4 },
  { type: 'judge', answer: ['对'], score: 2 },
  { type: 'blank', answer: ['42'], score: 4 },
  { type: 'subjective', answer: ['参考答案'], score: 10 },
];

/** The standard paper plus three long subjective questions: a sheet of two pages. */
export const TWO_PAGE_PAPER: QuestionSpec[] = [
  ...STANDARD_PAPER,
  { type: 'subjective', answer: ['参考答案'], score: 40 },
  { type: 'subjective', answer: ['参考答案'], score: 40 },
  { type: 'subjective', answer: ['参考答案'], score: 40 },
];

export type TestHomework = { id: number; students: { id: number; code: string; name: string }[]; classId: number };

/** A homework of the school's math teacher (owner: `teacher`) for the first class, with the given paper. */
export async function createHomework(
  app: FastifyInstance,
  orgId: number,
  spec: QuestionSpec[] = STANDARD_PAPER,
  owner = 'teacher',
): Promise<TestHomework> {
  const db = app.database.db;
  const [subject] = await db
    .select()
    .from(subjects)
    .where(and(eq(subjects.orgId, orgId), eq(subjects.name, '数学')));
  const [ownerRow] = await db.select().from(users).where(eq(users.username, owner));
  const [klass] = await db
    .select()
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, 2)))
    .orderBy(asc(classes.sort), asc(classes.id))
    .limit(1);
  const [year] = await db
    .select()
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, 1)))
    .limit(1);
  const questionRows = await db
    .insert(questions)
    .values(
      spec.map((q, i) => ({
        orgId,
        subjectId: subject!.id,
        type: q.type,
        stem: q.type === 'blank' ? `第${i + 1}题 ________` : `第${i + 1}题`,
        options: q.type === 'single' || q.type === 'multiple' ? ['甲', '乙', '丙', '丁'] : [],
        answer: q.answer,
        difficulty: 3,
      })),
    )
    .returning({ id: questions.id });
  const [paper] = await db
    .insert(papers)
    .values({ orgId, subjectId: subject!.id, schoolYearId: year!.id, title: '阅卷测试卷', createdBy: ownerRow!.id })
    .returning();
  const [section] = await db.insert(paperSections).values({ paperId: paper!.id, sort: 0, title: '一、试题' }).returning();
  await db.insert(paperQuestions).values(
    spec.map((q, i) => ({
      paperId: paper!.id,
      sectionId: section!.id,
      questionId: questionRows[i]!.id,
      no: i + 1,
      score: q.score,
    })),
  );
  const [row] = await db
    .insert(homework)
    .values({
      orgId,
      paperId: paper!.id,
      title: `阅卷测试作业${randomUUID().slice(0, 4)}`,
      status: 'assigned',
      startDate: '2026-03-02',
      dueDate: '2026-03-09',
      createdBy: ownerRow!.id,
    })
    .returning();
  await db.insert(homeworkClasses).values({ homeworkId: row!.id, classId: klass!.id });
  const roster = await db
    .select({ id: students.id, code: students.code, name: students.name })
    .from(students)
    .where(and(eq(students.orgId, orgId), eq(students.classId, klass!.id)))
    .orderBy(asc(students.code));
  return { id: row!.id, students: roster, classId: klass!.id };
}

// ---- pages -------------------------------------------------------------------------------------------

/** A real JPEG whose bytes differ for every `n`. */
export function pageJpeg(n: number): Promise<Buffer> {
  return sharp({
    create: { width: 16 + (n % 61), height: 16 + Math.floor(n / 61), channels: 3, background: { r: n % 256, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
}

let pageCounter = 0;

/** Scans sheets into a new batch (homework null: "by QR") through the scan endpoints; answers their image ids. */
export async function scanSheets(
  app: FastifyInstance,
  engine: FakeEngine,
  token: string,
  homeworkId: number | null,
  sheets: FakeSheet[],
  /** The scan setting 是否按学科分配试卷给任课老师 the pages carry (the upload helper's default: yes). */
  scanSubject = true,
): Promise<string[]> {
  const created = await createBatch(app, token, { homeworkId, stationName: '测试扫描站' });
  const batch = scanBatchSchema.parse(created.json().data);
  const ids: string[] = [];
  for (const [i, sheet] of sheets.entries()) {
    pageCounter += 1;
    const image = await pageJpeg(pageCounter);
    engine.script(image, sheet);
    const imageId = randomUUID();
    const response = await uploadPage(app, token, { batchId: batch.id, imageId, sequence: i + 1, scanSubject }, image);
    expect(response.statusCode, response.body).toBe(200);
    ids.push(imageId);
  }
  return ids;
}

/** Scans sheets as scanSheets does, then waits until recognition has read every page. */
export async function scanAndRecognise(...args: Parameters<typeof scanSheets>): Promise<string[]> {
  const ids = await scanSheets(...args);
  await args[0].marking.queue.idle();
  return ids;
}

/** Marks answering STANDARD_PAPER's objective questions right: 1 single B, 2 multiple A C, 3 judge 对. */
export const RIGHT_OBJECTIVE_MARKS: Record<number, string[]> = { 1: ['B'], 2: ['A', 'C'], 3: ['T'] };

/**
 * A new homework (createHomework) whose first `count` students' sheets, marked `marks`, are scanned by
 * `scanner` and recognised. `owner` is the homework owner's username.
 */
export async function scannedHomework(
  app: FastifyInstance,
  engine: FakeEngine,
  scanner: Caller,
  count: number,
  options: { marks?: Record<number, string[]>; owner?: string; scanSubject?: boolean } = {},
): Promise<TestHomework> {
  const hw = await createHomework(app, scanner.orgId, undefined, options.owner);
  const marks = options.marks ?? RIGHT_OBJECTIVE_MARKS;
  const sheets = hw.students.slice(0, count).map((s) => sheetOf(hw.id, s.code, marks));
  await scanAndRecognise(app, engine, scanner.token, hw.id, sheets, options.scanSubject);
  return hw;
}

/** `caller` takes the next answer of question `questionNo` to mark and gives it `score`. */
export async function markNext(
  caller: Caller,
  homeworkId: number,
  questionNo: number,
  score: number,
): Promise<{ taskId: number; answerId: number }> {
  const task = data<{ taskId: number; answerId: number }>(
    await caller({ method: 'POST', url: `/api/marking/homework/${homeworkId}/questions/${questionNo}/next`, payload: {} }),
  );
  data(await caller({ method: 'POST', url: `/api/marking/tasks/${task.taskId}/score`, payload: { score } }));
  return task;
}

/** A per-student sheet page. */
export function sheetOf(
  homeworkId: number,
  studentCode: string | undefined,
  marks: Record<number, string[]> = {},
  page = 1,
): FakeSheet {
  return { qr: { homeworkId, page, ...(studentCode ? { studentCode } : {}) }, marks };
}

// ---- realtime -----------------------------------------------------------------------------------------

export type Broadcast = { room: string; event: string; payload: unknown };

/** Records every broadcast the app makes from now on (it still goes out). */
export function recordBroadcasts(app: FastifyInstance): Broadcast[] {
  const seen: Broadcast[] = [];
  const original = app.realtime.to.bind(app.realtime);
  app.realtime.to = ((room: string) => {
    const operator = original(room);
    return {
      emit: (event: string, payload: unknown) => {
        seen.push({ room, event, payload });
        return operator.emit(event, payload);
      },
    };
  }) as typeof app.realtime.to;
  return seen;
}
