import { beforeAll, describe, expect, it } from 'vitest';
import { classListSchema, updateClassDefaultResponseSchema } from '../../../src/shared/contract/system';
import { classes, orgs } from '../../../server/db/schema';
import { bearer, failure, loginAs } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('the school-year endpoints', () => {
  const app = useTestApp();
  let demoOrgId: number;
  let otherOrgId: number;
  let otherSchoolYearId: number;
  let teacherToken: string;

  beforeAll(async () => {
    const teacher = await loginAs(app(), 'teacher');
    teacherToken = teacher.access_token;
    demoOrgId = teacher.user.userGradeInfo.orgDefaultId!;
    // Another school, which the demo teacher does not belong to.
    const db = app().database.db;
    const [other] = await db.insert(orgs).values({ name: '另一所中学' }).returning();
    otherOrgId = other!.id;
    const [year] = await db.insert(classes).values({ orgId: otherOrgId, type: 1, name: '2026级' }).returning();
    otherSchoolYearId = year!.id;
  });

  const listClasses = (query: string, token = teacherToken) =>
    app().inject({ method: 'GET', url: `/api/system/class?${query}`, headers: bearer(token) });
  const setDefault = (form: string, token = teacherToken) =>
    app().inject({
      method: 'PUT',
      url: '/api/system/class/updateClassDefault',
      headers: { ...bearer(token), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });

  describe('GET /api/system/class', () => {
    it('lists the school years of the org, newest first, for an empty pid', async () => {
      const response = await listClasses(`orgId=${demoOrgId}&type=1&pid=`);
      expect(response.statusCode).toBe(200);
      const list = classListSchema.parse(response.json().data);
      expect(list.map((item) => item.name)).toEqual(['2026级 (初一)', '2025级 (初二)', '2024级 (初三)']);
    });

    it('lists the classes of one school year with type=2 and pid', async () => {
      const years = classListSchema.parse((await listClasses(`orgId=${demoOrgId}&type=1`)).json().data);
      const response = await listClasses(`orgId=${demoOrgId}&type=2&pid=${years[1]!.id}`);
      expect(classListSchema.parse(response.json().data).map((item) => item.name)).toEqual([
        '初二(1)班',
        '初二(2)班',
        '初二(3)班',
        '初二(4)班',
      ]);
    });

    it('answers 403 for a school the user does not belong to', async () => {
      expect(failure(await listClasses(`orgId=${otherOrgId}&type=1`))).toEqual({ status: 403, msg: '很抱歉，您暂无该操作权限' });
    });

    it('answers 403 to a user without any school', async () => {
      const newbie = await loginAs(app(), 'newbie');
      expect(failure(await listClasses(`orgId=${demoOrgId}&type=1`, newbie.access_token)).status).toBe(403);
    });

    it('answers 404 for a pid that is a school year of another school', async () => {
      expect(failure(await listClasses(`orgId=${demoOrgId}&type=2&pid=${otherSchoolYearId}`))).toEqual({
        status: 404,
        msg: '很抱歉，资源未找到',
      });
    });

    it.each(['', 'orgId=abc&type=1', `orgId=1&type=3`, 'type=1', 'orgId=1&type=2&pid=x'])(
      'answers 400 for the query "%s"',
      async (query) => {
        const { status, msg } = failure(await listClasses(query));
        expect(status).toBe(400);
        expect(msg).toMatch(/^请求参数错误：/);
      },
    );

    it('answers 401 without a token', async () => {
      const response = await app().inject({ method: 'GET', url: `/api/system/class?orgId=${demoOrgId}&type=1` });
      expect(failure(response).status).toBe(401);
    });
  });

  describe('PUT /api/system/class/updateClassDefault', () => {
    it('sets the default school year and the default school, seen in the next /api/user/info', async () => {
      const director = await loginAs(app(), 'director');
      expect(director.user.userGradeInfo.classDefaultName).toBe('2026级 (初一)');
      const years = classListSchema.parse((await listClasses(`orgId=${demoOrgId}&type=1`, director.access_token)).json().data);
      const response = await setDefault(`orgId=${demoOrgId}&classId=${years[2]!.id}`, director.access_token);
      expect(response.statusCode).toBe(200);
      expect(updateClassDefaultResponseSchema.parse(response.json().data)).toMatchObject({
        orgDefaultId: demoOrgId,
        classDefaultId: years[2]!.id,
        classDefaultName: '2024级 (初三)',
        gradeDirector: true,
      });
      const info = await app().inject({ method: 'GET', url: '/api/user/info', headers: bearer(director.access_token) });
      expect(info.json().data.userGradeInfo.classDefaultName).toBe('2024级 (初三)');
    });

    it('answers 403 for a school the user does not belong to', async () => {
      expect(failure(await setDefault(`orgId=${otherOrgId}&classId=${otherSchoolYearId}`)).status).toBe(403);
    });

    it('answers 404 for a school year of another school', async () => {
      expect(failure(await setDefault(`orgId=${demoOrgId}&classId=${otherSchoolYearId}`)).status).toBe(404);
    });

    it('answers 404 for a class that is not a school year', async () => {
      const years = classListSchema.parse((await listClasses(`orgId=${demoOrgId}&type=1`)).json().data);
      const klass = classListSchema.parse((await listClasses(`orgId=${demoOrgId}&type=2&pid=${years[0]!.id}`)).json().data)[0]!;
      expect(failure(await setDefault(`orgId=${demoOrgId}&classId=${klass.id}`)).status).toBe(404);
    });

    it.each(['', 'orgId=1', 'classId=1', 'orgId=x&classId=1'])('answers 400 for the form "%s"', async (form) => {
      expect(failure(await setDefault(form)).status).toBe(400);
    });
  });
});
