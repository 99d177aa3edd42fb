import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unscannedStudentsSchema } from '../../../src/shared/contract/scan';
import { failure } from '../accounts-helper';
import {
  type Caller,
  createHomework,
  data,
  FakeEngine,
  type MarkingApp,
  markingSchool,
  scannedHomework,
} from '../marking/marking-helper';
import type { createOtherSchool } from '../papers/papers-helper';

describe('GET /api/scan/homework/:id/unscanned-students', () => {
  const engine = new FakeEngine();
  let handle: MarkingApp;
  let teacher: Caller;
  let other: Awaited<ReturnType<typeof createOtherSchool>>;
  const app = () => handle.app;

  beforeAll(async () => {
    ({ handle, teacher, other } = await markingSchool(engine));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('lists the students still to scan (not the scanned, not the absent) and a sample of the scanned', async () => {
    const hw = await scannedHomework(app(), engine, teacher, 2, { marks: { 1: ['B'] } });
    const absent = hw.students[2]!;
    data(
      await teacher({
        method: 'PUT',
        url: `/api/marking/homework/${hw.id}/students/${absent.id}/absence`,
        payload: { absent: true },
      }),
    );
    const answer = unscannedStudentsSchema.parse(
      data(await teacher({ method: 'GET', url: `/api/scan/homework/${hw.id}/unscanned-students` })),
    );
    expect(answer.unscanned.map((s) => s.code)).toEqual(hw.students.slice(3).map((s) => s.code));
    expect(answer.scanned.map((s) => s.code).sort()).toEqual(
      hw.students
        .slice(0, 2)
        .map((s) => s.code)
        .sort(),
    );
  });

  it("answers 404 for another school's homework and 400 for a bad id", async () => {
    const hw = await createHomework(app(), teacher.orgId);
    expect(failure(await other.call({ method: 'GET', url: `/api/scan/homework/${hw.id}/unscanned-students` })).status).toBe(404);
    expect(failure(await teacher({ method: 'GET', url: '/api/scan/homework/abc/unscanned-students' })).status).toBe(400);
    expect(failure(await teacher({ method: 'GET', url: '/api/scan/homework/99999999999/unscanned-students' })).status).toBe(400);
  });
});
