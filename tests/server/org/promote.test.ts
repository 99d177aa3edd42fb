/** 升年级: a school year and its classes move one grade up; the last grade graduates; history keeps its names. */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { homeworkSchema, paperDetailSchema, questionPageSchema } from '../../../src/shared/contract/papers';
import { promotionResultSchema, schoolStructureSchema } from '../../../src/shared/contract/org';
import { PROMOTION_MESSAGES, promotedName, promotionOf } from '../../../src/shared/lib/grade-ladder';
import { classes } from '../../../server/db/schema';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor } from '../papers/papers-helper';
import { demoSchool } from './org-helper';

describe('the grade ladder', () => {
  it('moves 初一, 七年级, 高二 and 五年级 up and graduates the last grade', () => {
    expect(promotionOf('2026级 (初一)')).toEqual({ from: '初一', to: '初二' });
    expect(promotedName('初一(3)班', promotionOf('2026级 (初一)')!)).toBe('初二(3)班');
    expect(promotionOf('2025级七年级')).toEqual({ from: '七年级', to: '八年级' });
    expect(promotionOf('高二')).toEqual({ from: '高二', to: '高三' });
    expect(promotionOf('2022级 五年级')!.to).toBe('六年级');
    expect(promotionOf('2024级 (初三)')).toEqual({ from: '初三', to: null });
    expect(promotionOf('2027级')).toBeNull();
    expect(promotedName('1班', { from: '初一', to: '初二' })).toBe('1班');
  });
});

describe('promoting a school year', () => {
  const app = useTestApp();
  let creator: Caller;
  let teacher: Caller;
  let orgId: number;
  let yearId: number;
  let firstClassId: number;

  beforeAll(async () => {
    const school = await demoSchool(app());
    orgId = school.orgId;
    yearId = school.schoolYearId;
    firstClassId = school.classIds[0]!;
    creator = await callerFor(app(), 'creator');
    teacher = await callerFor(app(), 'teacher');
  });

  const promote = (caller: Caller, id: number) =>
    caller({ method: 'POST', url: `/api/org/schools/${orgId}/school-years/${id}/promote`, payload: {} });
  const structure = async () =>
    schoolStructureSchema.parse((await creator({ method: 'GET', url: `/api/org/schools/${orgId}/structure` })).json().data);

  it('renames 2026级 (初一) and its classes to 初二, keeping the class names homework was set with', async () => {
    // A homework of the teacher for 初一(1)班, set before the promotion.
    const bank = questionPageSchema.parse(
      (await teacher({ method: 'GET', url: `/api/questions?subjectId=${(await demoSchool(app())).mathId}&pageSize=2` })).json()
        .data,
    );
    const paper = paperDetailSchema.parse(
      (
        await teacher({
          method: 'POST',
          url: '/api/papers',
          payload: {
            title: '升级前的作业',
            subjectId: (await demoSchool(app())).mathId,
            schoolYearId: yearId,
            paperSize: 'A4',
            sections: [{ title: '一、选择题', questions: bank.list.map((q) => ({ questionId: q.id, score: 5 })) }],
          },
        })
      ).json().data,
    );
    const homework = homeworkSchema.parse(
      (
        await teacher({
          method: 'POST',
          url: '/api/homework',
          payload: { paperId: paper.id, classIds: [firstClassId], startDate: '2026-06-01', dueDate: '2026-06-08' },
        })
      ).json().data,
    );
    expect(homework.classes.map((c) => c.name)).toEqual(['初一(1)班']);

    expect(failure(await promote(teacher, yearId)).status).toBe(403);
    expect(promotionResultSchema.parse((await promote(creator, yearId)).json().data)).toEqual({
      name: '2026级 (初二)',
      graduated: false,
    });
    const year = (await structure()).schoolYears.find((y) => y.id === yearId)!;
    expect(year.name).toBe('2026级 (初二)');
    expect(year.classes.map((c) => c.name)).toEqual(['初二(1)班', '初二(2)班', '初二(3)班', '初二(4)班']);
    // The class is the same (its students, teachers and history stay); the old homework shows 初一(1)班.
    const again = homeworkSchema.parse((await teacher({ method: 'GET', url: `/api/homework/${homework.id}` })).json().data);
    expect(again.classes).toEqual([{ id: firstClassId, name: '初一(1)班' }]);
  });

  it('graduates the last grade (archived), and refuses a school year without a grade in its name', async () => {
    const last = (await structure()).schoolYears.find((y) => y.name.includes('初三'))!;
    expect(promotionResultSchema.parse((await promote(creator, last.id)).json().data).graduated).toBe(true);
    const graduated = (await structure()).schoolYears.find((y) => y.id === last.id)!;
    expect(graduated.archived).toBe(true);
    expect(graduated.classes.every((c) => c.archived)).toBe(true);
    expect(failure(await promote(creator, last.id)).status).toBe(400);

    await app().database.db.update(classes).set({ name: '2030级' }).where(eq(classes.id, yearId));
    expect(failure(await promote(creator, yearId))).toEqual({ status: 400, msg: PROMOTION_MESSAGES.noGrade });
    expect(failure(await promote(creator, firstClassId)).status).toBe(404);
  });
});
