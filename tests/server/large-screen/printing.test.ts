/**
 * Printing answer sheets is recorded: the PDF a teacher downloads (or opens to print) counts as sheets
 * printed for its class, the homework's screens hear it at once, and the large screen's pipeline starts
 * with 已印. Bad input and another school's homework print and record nothing.
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { answerSheetPrints } from '../../../server/db/schema';
import {
  ANSWER_SHEETS_PRINTED_EVENT,
  answerSheetsPrintedEventSchema,
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  screenPairingSchema,
  type AnswerSheetsPrintedEvent,
  type LargeScreenSnapshot,
  type ScreenCreate,
} from '../../../src/shared/contract/large-screen';
import { bearer, failure, fakeClock, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';
import { demoSchool } from '../org/org-helper';
import { createHomework, type TestHomework } from '../marking/marking-helper';
import { createOtherSchool } from '../papers/papers-helper';

describe('answer sheets printed, on the large screen', () => {
  let handle: Awaited<ReturnType<typeof createTestApp>>;
  let url: string;
  const clock = fakeClock(new Date());
  const sockets: Socket[] = [];
  let creator: string;
  let teacher: string;
  let school: Awaited<ReturnType<typeof demoSchool>>;
  let hw: TestHomework;
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createTestApp({ now: clock.now, config: { rateLimitPerMinute: 1000 } });
    await app().listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app().server.address() as AddressInfo).port}`;
    school = await demoSchool(app());
    creator = (await loginAs(app(), 'creator')).access_token;
    teacher = (await loginAs(app(), 'teacher')).access_token;
    hw = await createHomework(app(), school.orgId);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await handle?.close();
  });

  async function pairedScreen(input: Partial<ScreenCreate>): Promise<string> {
    const { code, secret } = screenPairingSchema.parse(
      (await app().inject({ method: 'POST', url: '/api/screens/pairings' })).json().data,
    );
    const response = await app().inject({
      method: 'POST',
      url: '/api/screens',
      headers: bearer(creator),
      payload: { code, name: '走廊', scopeKind: 'school', panels: ['pipeline'], ...input },
    });
    expect(response.statusCode, response.body).toBe(200);
    const collected = pairingCollectResultSchema.parse(
      (await app().inject({ method: 'POST', url: '/api/screens/pairings/collect', payload: { secret } })).json().data,
    );
    return collected.token!;
  }

  async function listening(token: string): Promise<AnswerSheetsPrintedEvent[]> {
    const socket = connect(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
    sockets.push(socket);
    const heard: AnswerSheetsPrintedEvent[] = [];
    socket.on(ANSWER_SHEETS_PRINTED_EVENT, (payload: unknown) => heard.push(answerSheetsPrintedEventSchema.parse(payload)));
    await new Promise<void>((resolve, reject) => {
      socket.once('server.joined', () => resolve());
      socket.once('connect_error', reject);
    });
    return heard;
  }

  const print = (query: string, token = teacher) =>
    app().inject({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet.pdf?${query}`, headers: bearer(token) });
  const snapshotOf = async (token: string): Promise<LargeScreenSnapshot> => {
    const response = await app().inject({ method: 'GET', url: '/api/largescreen/snapshot', headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return largeScreenSnapshotSchema.parse(response.json().data);
  };
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const printsOf = () => app().database.db.select().from(answerSheetPrints).where(eq(answerSheetPrints.homeworkId, hw.id));

  it('records a class’s per-student sheets, tells the class’s screens at once, and starts the pipeline with 已印', async () => {
    const classScreen = await pairedScreen({ scopeKind: 'class', classId: hw.classId, name: '一班' });
    const otherClassScreen = await pairedScreen({ scopeKind: 'class', classId: school.classIds[1]!, name: '二班' });
    const heard = await listening(classScreen);
    const otherHeard = await listening(otherClassScreen);
    // Assigned, nothing scanned: not on today's pipeline yet.
    expect((await snapshotOf(classScreen)).pipeline.map((p) => p.homeworkId)).not.toContain(hw.id);

    const response = await print(`mode=student&classId=${hw.classId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/pdf');
    const rows = await printsOf();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ orgId: school.orgId, classId: hw.classId, mode: 'student', sheets: hw.students.length });
    expect(hw.students.length).toBeGreaterThan(0);

    await until(() => heard.length > 0);
    expect(heard).toEqual([
      {
        homeworkId: hw.id,
        classId: hw.classId,
        mode: 'student',
        sheets: hw.students.length,
        printedAt: rows[0]!.printedAt.toISOString(),
      },
    ]);
    const view = await snapshotOf(classScreen);
    const pipeline = view.pipeline.find((p) => p.homeworkId === hw.id);
    expect(pipeline, 'printed today: on the pipeline').toBeDefined();
    expect(pipeline!.classes).toEqual([expect.objectContaining({ classId: hw.classId, printed: hw.students.length })]);
    expect(pipeline!.printing).toEqual({ genericSheets: 0, lastPrintedAt: rows[0]!.printedAt.toISOString() });
    // The other class's screen neither heard it nor shows the homework.
    expect(otherHeard).toEqual([]);
    expect((await snapshotOf(otherClassScreen)).pipeline.map((p) => p.homeworkId)).not.toContain(hw.id);
  });

  it('counts a reprint once, and a generic sheet (通用答题卡) as a master with no class count', async () => {
    const token = await pairedScreen({ scopeKind: 'schoolYear', schoolYearId: school.schoolYearId, name: '初一' });
    expect((await print(`mode=student&classId=${hw.classId}`)).statusCode).toBe(200);
    expect((await print('mode=class')).statusCode).toBe(200);
    const rows = await printsOf();
    expect(rows.map((r) => [r.mode, r.classId, r.sheets])).toEqual([
      ['student', hw.classId, hw.students.length],
      ['student', hw.classId, hw.students.length],
      ['class', null, 1],
    ]);
    const pipeline = (await snapshotOf(token)).pipeline.find((p) => p.homeworkId === hw.id)!;
    expect(pipeline.classes.find((c) => c.classId === hw.classId)!.printed).toBe(hw.students.length);
    expect(pipeline.printing.genericSheets).toBe(1);
    expect(pipeline.printing.lastPrintedAt).toBe(rows.at(-1)!.printedAt.toISOString());
  });

  it('records nothing for bad input or another school’s homework', async () => {
    const before = (await printsOf()).length;
    expect(failure(await print('mode=student')).status).toBe(400);
    expect(failure(await print(`mode=student&classId=${school.classIds[1]}`))).toEqual({
      status: 400,
      msg: '该作业没有布置给这个班级',
    });
    const other = await createOtherSchool(app());
    expect(failure(await other.call({ method: 'GET', url: `/api/homework/${hw.id}/answer-sheet.pdf?mode=class` })).status).toBe(
      404,
    );
    expect((await printsOf()).length).toBe(before);
  });
});
