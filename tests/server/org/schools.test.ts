/**
 * Schools from nothing: newbie creates a school and sets it up (settings, bands, school years, classes,
 * subjects), appoints a grade director (the spec's gradeDirector flag follows), keeps at least one
 * creator, and a member of two schools switches between them. Also the seeded demo duties and the scope
 * analysis will read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { currentUserSchema } from '../../../src/shared/contract/auth';
import {
  DEFAULT_BANDS,
  ORG_MESSAGES,
  memberListSchema,
  schoolDetailSchema,
  schoolStructureSchema,
} from '../../../src/shared/contract/org';
import { loadActor, visibleScope } from '../../../server/services/org/permissions';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor } from '../papers/papers-helper';
import { addUser, demoSchool } from './org-helper';

describe('a school set up from nothing', () => {
  const app = useTestApp();
  let newbie: Caller;
  let orgId: number;

  beforeAll(async () => {
    newbie = await callerFor(app(), 'newbie');
  });

  it('creates the school and makes its creator work in it', async () => {
    const bad = await newbie({
      method: 'POST',
      url: '/api/org/schools',
      payload: { name: '', region: '杭州', schoolType: '大学' },
    });
    expect(bad.statusCode).toBe(400);
    const response = await newbie({
      method: 'POST',
      url: '/api/org/schools',
      payload: { name: '新星初级中学', region: '浙江省杭州市', schoolType: '初中' },
    });
    const user = currentUserSchema.parse(response.json().data);
    expect(user.userGradeInfo).toMatchObject({ orgName: '新星初级中学', isCreator: true, gradeDirector: false });
    orgId = user.userGradeInfo.orgDefaultId!;
    const detail = schoolDetailSchema.parse((await newbie({ method: 'GET', url: `/api/org/schools/${orgId}` })).json().data);
    expect(detail).toMatchObject({ ...DEFAULT_BANDS, myRole: 'creator', canManage: true, memberCount: 1, schoolType: '初中' });
    const structure = schoolStructureSchema.parse(
      (await newbie({ method: 'GET', url: `/api/org/schools/${orgId}/structure` })).json().data,
    );
    expect(structure.subjects.map((s) => s.name)).toContain('数学');
    // The new school works for papers at once: its subjects are there.
    expect((await newbie({ method: 'GET', url: '/api/subjects' })).statusCode).toBe(200);
  });

  it('edits its settings; the bands must rise', async () => {
    const settings = {
      name: '新星中学',
      region: '浙江省杭州市',
      schoolType: '完全中学',
      filingNumber: '浙ICP备00000000号',
      passPercent: 55,
      goodPercent: 70,
      excellentPercent: 90,
      lowPercent: 35,
    };
    const saved = await newbie({ method: 'PUT', url: `/api/org/schools/${orgId}`, payload: settings });
    expect(schoolDetailSchema.parse(saved.json().data)).toMatchObject(settings);
    const wrong = await newbie({ method: 'PUT', url: `/api/org/schools/${orgId}`, payload: { ...settings, goodPercent: 95 } });
    expect(failure(wrong).msg).toContain(ORG_MESSAGES.bandsOrder);
    // The 低分 line sits below 及格.
    const low = await newbie({ method: 'PUT', url: `/api/org/schools/${orgId}`, payload: { ...settings, lowPercent: 55 } });
    expect(failure(low).msg).toContain(ORG_MESSAGES.lowBelowPass);
  });

  it('creates a school year with its classes in one step, renames and archives', async () => {
    const created = await newbie({
      method: 'POST',
      url: `/api/org/schools/${orgId}/school-years`,
      payload: { name: '2026级', classNames: ['初一(1)班', '初一(2)班'] },
    });
    const yearId = created.json().data.id as number;
    const klass = await newbie({
      method: 'POST',
      url: `/api/org/schools/${orgId}/school-years/${yearId}/classes`,
      payload: { name: '初一(3)班' },
    });
    const classId = klass.json().data.id as number;
    await newbie({ method: 'PUT', url: `/api/org/schools/${orgId}/classes/${classId}`, payload: { name: '初一(3)班（实验）' } });
    await newbie({ method: 'POST', url: `/api/org/schools/${orgId}/classes/${classId}/archive`, payload: { archived: true } });
    const structure = schoolStructureSchema.parse(
      (await newbie({ method: 'GET', url: `/api/org/schools/${orgId}/structure` })).json().data,
    );
    expect(structure.schoolYears).toEqual([
      {
        id: yearId,
        name: '2026级',
        archived: false,
        classes: [
          expect.objectContaining({ name: '初一(1)班', archived: false }),
          expect.objectContaining({ name: '初一(2)班', archived: false }),
          { id: classId, name: '初一(3)班（实验）', archived: true },
        ],
      },
    ]);
    const dup = await newbie({ method: 'POST', url: `/api/org/schools/${orgId}/subjects`, payload: { name: '数学' } });
    expect(failure(dup)).toEqual({ status: 400, msg: '学科已存在' });
    // Another school's class is not this school's.
    const demo = await demoSchool(app());
    const foreign = await newbie({
      method: 'PUT',
      url: `/api/org/schools/${orgId}/classes/${demo.classIds[0]}`,
      payload: { name: 'x' },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('appoints a grade director, whose flag the session shows; keeps one creator', async () => {
    const colleagueId = await addUser(app(), 'colleague', '钱老师');
    const invitation = await newbie({ method: 'POST', url: `/api/org/schools/${orgId}/invitations`, payload: {} });
    const colleague = await callerFor(app(), 'colleague');
    await colleague({ method: 'POST', url: '/api/invitations/accept', payload: { code: invitation.json().data.code } });
    const structure = schoolStructureSchema.parse(
      (await newbie({ method: 'GET', url: `/api/org/schools/${orgId}/structure` })).json().data,
    );
    const yearId = structure.schoolYears[0]!.id;
    const update = await newbie({
      method: 'PUT',
      url: `/api/org/schools/${orgId}/members/${colleagueId}`,
      payload: { role: 'teacher', gradeDirectorOf: [yearId], classTeacherOf: [], assignments: [] },
    });
    expect(update.json().msg).toBe('操作成功');
    const info = currentUserSchema.parse((await colleague({ method: 'GET', url: '/api/user/info' })).json().data);
    expect(info.userGradeInfo.gradeDirector).toBe(true);

    // The only creator cannot leave or be demoted; after appointing a second creator they can step down.
    expect(failure(await newbie({ method: 'POST', url: `/api/org/schools/${orgId}/leave` })).msg).toBe(ORG_MESSAGES.lastCreator);
    const me = currentUserSchema.parse((await newbie({ method: 'GET', url: '/api/user/info' })).json().data);
    const demote = await newbie({
      method: 'PUT',
      url: `/api/org/schools/${orgId}/members/${me.id}`,
      payload: { role: 'teacher' },
    });
    expect(failure(demote).msg).toBe(ORG_MESSAGES.lastCreator);
    const appoint = await newbie({
      method: 'PUT',
      url: `/api/org/schools/${orgId}/members/${colleagueId}`,
      payload: { role: 'creator', gradeDirectorOf: [yearId] },
    });
    expect(appoint.statusCode).toBe(200);
    const stepDown = await newbie({
      method: 'PUT',
      url: `/api/org/schools/${orgId}/members/${me.id}`,
      payload: { role: 'admin' },
    });
    expect(stepDown.statusCode).toBe(200);
    // An admin cannot touch a creator.
    const touch = await newbie({ method: 'DELETE', url: `/api/org/schools/${orgId}/members/${colleagueId}` });
    expect(failure(touch).status).toBe(403);
    const members = memberListSchema.parse(
      (await newbie({ method: 'GET', url: `/api/org/schools/${orgId}/members` })).json().data,
    );
    expect(members.map((m) => m.role).sort()).toEqual(['admin', 'creator']);
  });

  it('switches school for a member of two, and leaving falls back to the other', async () => {
    const demo = await demoSchool(app());
    const creator = await callerFor(app(), 'creator');
    const invitation = await creator({ method: 'POST', url: `/api/org/schools/${demo.orgId}/invitations`, payload: {} });
    const joined = await newbie({
      method: 'POST',
      url: '/api/invitations/accept',
      payload: { token: invitation.json().data.token },
    });
    expect(currentUserSchema.parse(joined.json().data).orgs).toHaveLength(2);
    const switched = await newbie({ method: 'PUT', url: '/api/org/default', payload: { orgId } });
    expect(currentUserSchema.parse(switched.json().data).userGradeInfo.orgDefaultId).toBe(orgId);
    const foreign = await newbie({ method: 'PUT', url: '/api/org/default', payload: { orgId: 999_999 } });
    expect(foreign.statusCode).toBe(404);
    const left = await newbie({ method: 'POST', url: `/api/org/schools/${orgId}/leave` });
    expect(currentUserSchema.parse(left.json().data).userGradeInfo.orgDefaultId).toBe(demo.orgId);
  });
});

describe('the demo duties and the analysis scope', () => {
  const app = useTestApp();

  it('gives the demo teacher maths in every 2026级 class and one class of their own; the director the whole year', async () => {
    const demo = await demoSchool(app());
    const db = app().database.db;
    const teacher = currentUserSchema.parse(
      (await (await callerFor(app(), 'teacher'))({ method: 'GET', url: '/api/user/info' })).json().data,
    );
    const director = currentUserSchema.parse(
      (await (await callerFor(app(), 'director'))({ method: 'GET', url: '/api/user/info' })).json().data,
    );
    expect(director.userGradeInfo.gradeDirector).toBe(true);
    expect(teacher.userGradeInfo.gradeDirector).toBe(false);

    const teacherScope = await visibleScope(db, await loadActor(db, teacher.id), demo.schoolYearId);
    expect(teacherScope.wholeYear).toBe(false);
    expect(teacherScope.classes).toEqual(
      demo.classIds.map((classId, i) => ({ classId, subjects: i === 0 ? 'all' : [demo.mathId] })),
    );
    const directorScope = await visibleScope(db, await loadActor(db, director.id), demo.schoolYearId);
    expect(directorScope.wholeYear).toBe(true);
    expect(directorScope.classes.map((c) => c.classId).sort()).toEqual([...demo.classIds].sort());
  });
});
