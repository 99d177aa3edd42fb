import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orgs } from '../../../server/db/schema';
import { seedDemo } from '../../../server/db/seed';
import { loginAs } from '../accounts-helper';
import { useTestApp } from '../helper';
import { callerFor } from '../papers/papers-helper';

describe('the demo seed', () => {
  const app = useTestApp();

  it('creates the four demo accounts with the documented mobiles, roles and defaults', async () => {
    const teacher = (await loginAs(app(), 'teacher')).user;
    const director = (await loginAs(app(), 'director')).user;
    const creator = (await loginAs(app(), 'creator')).user;
    const newbie = (await loginAs(app(), 'newbie')).user;

    expect([teacher, director, creator, newbie].map((user) => user.mobile)).toEqual([
      '138****0001',
      '138****0002',
      '138****0003',
      '138****0004',
    ]);
    expect(teacher.userGradeInfo).toMatchObject({
      orgName: '示范中学',
      isCreator: false,
      gradeDirector: false,
      classDefaultName: '2026级 (初一)',
    });
    expect(director.userGradeInfo).toMatchObject({ orgName: '示范中学', gradeDirector: true, classDefaultName: '2026级 (初一)' });
    // The top bar's school-year picker shows the school's year for the creator too, not 暂无默认学年.
    expect(creator.userGradeInfo).toMatchObject({ orgName: '示范中学', isCreator: true, classDefaultName: '2026级 (初一)' });
    expect(creator.orgs[0]!.role).toBe('creator');
    expect(newbie.orgs).toEqual([]);
    expect(newbie.userGradeInfo).toEqual({
      orgDefaultId: null,
      orgName: null,
      gradeDirector: false,
      isCreator: false,
      classDefaultId: null,
      classDefaultName: null,
    });
  });

  it('fills 校本资料 with papers shared by the maths, Chinese and English teachers', async () => {
    const teacher = await callerFor(app(), 'teacher');
    const response = await teacher({ method: 'GET', url: '/api/school-materials?pageSize=50' });
    expect(response.statusCode).toBe(200);
    const titles = (response.json().data.list as { title: string }[]).map((paper) => paper.title);
    expect(titles).toEqual(
      expect.arrayContaining(['有理数单元练习', '第一单元基础练习', 'Starter Units 词汇与语法', '古诗文默写与理解']),
    );

    const sets = await teacher({ method: 'GET', url: '/api/question-sets?scope=shared' });
    expect(sets.statusCode).toBe(200);
    const [set] = sets.json().data.list as { name: string; questionCount: number; mine: boolean }[];
    expect(set).toMatchObject({ name: expect.stringContaining('精选练习'), mine: true });
    expect(set!.questionCount).toBeGreaterThan(0);
  });

  it('gives the demo school a region, so 学校设置 saves without filling the required 所在地区 first', async () => {
    const [school] = await app().database.db.select({ region: orgs.region }).from(orgs).where(eq(orgs.name, '示范中学'));
    expect(school?.region).toBe('北京市海淀区');
  });

  it('does nothing when a school exists already', async () => {
    expect(await seedDemo(app().database.db)).toBe(false);
  });
});

describe('the migrations', () => {
  it('never name the public schema, so each test file can run in its own PostgreSQL schema', () => {
    const folder = path.resolve('server/db/migrations');
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.sql'))) {
      expect(fs.readFileSync(path.join(folder, file), 'utf8'), file).not.toContain('"public".');
    }
  });
});
