/**
 * The demo school. Runs once, when the database has no school at all, so a fresh `npm start` shows a
 * working product. Later issues extend it; every step stays idempotent-by-emptiness.
 */
import { count, eq } from 'drizzle-orm';
import { CLASS_TYPE } from '../../src/shared/contract/system';
import { hashPassword } from '../services/auth/password-hasher';
import type { Db } from './client';
import { classes, classTeachers, gradeDirectors, memberships, orgs, subjects, teachingAssignments, users } from './schema';
import { seedPapersDemo } from './seed-papers';
import { seedSemesterForSchool } from './seed-semester';

export const DEMO_SCHOOL_NAME = '示范中学';
/** 所在地区 is required by 学校设置: an empty one would make its 保存设置 fail until filled. */
export const DEMO_SCHOOL_REGION = '北京市海淀区';
export const DEMO_PASSWORD = 'Demo@2026';

/** School years, newest first, each with four classes named after its grade. */
export const DEMO_SCHOOL_YEARS = [
  { name: '2026级 (初一)', grade: '初一' },
  { name: '2025级 (初二)', grade: '初二' },
  { name: '2024级 (初三)', grade: '初三' },
] as const;
export const DEMO_CLASSES_PER_YEAR = 4;
export const DEMO_SUBJECTS = ['数学', '语文', '英语', '物理', '化学', '生物', '历史', '地理', '道德与法治'] as const;

/** In this order, so their ids and mobiles (13800000001..13800000004) are predictable. */
export const DEMO_USERS = [
  { username: 'teacher', nickname: '王老师', mobile: '13800000001' },
  { username: 'director', nickname: '李主任', mobile: '13800000002' },
  { username: 'creator', nickname: '张校长', mobile: '13800000003' },
  { username: 'newbie', nickname: '新老师', mobile: '13800000004' },
] as const;

/**
 * `semester`: also seed the demo semester of marked homework; `scanned`: also the homework whose sheets
 * the server scans after start (DEMO_SCANNED_HOMEWORK). Both default to everywhere but unit tests.
 */
export async function seedDemo(db: Db, options: { semester?: boolean; scanned?: boolean } = {}): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(orgs);
  if ((row?.value ?? 0) > 0) return false;
  // scrypt runs on the libuv pool, so the four hashes cost about as much as one.
  const passwordHashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  await db.transaction(async (tx) => {
    const [school] = await tx.insert(orgs).values({ name: DEMO_SCHOOL_NAME, region: DEMO_SCHOOL_REGION }).returning();
    if (!school) throw new Error('demo school was not created');

    const years = await tx
      .insert(classes)
      .values(
        DEMO_SCHOOL_YEARS.map((year, i) => ({ orgId: school.id, type: CLASS_TYPE.schoolYear, name: year.name, sort: i + 1 })),
      )
      .returning();
    const classRows = await tx
      .insert(classes)
      .values(
        years.flatMap((year, i) =>
          Array.from({ length: DEMO_CLASSES_PER_YEAR }, (_, k) => ({
            orgId: school.id,
            pid: year.id,
            type: CLASS_TYPE.klass,
            name: `${DEMO_SCHOOL_YEARS[i]!.grade}(${k + 1})班`,
            sort: k + 1,
          })),
        ),
      )
      .returning();
    const subjectRows = await tx
      .insert(subjects)
      .values(DEMO_SUBJECTS.map((name, i) => ({ orgId: school.id, name, sort: i + 1 })))
      .returning();
    const subjectId = (name: string) => subjectRows.find((subject) => subject.name === name)?.id ?? null;

    const created = await tx
      .insert(users)
      .values(DEMO_USERS.map((user, i) => ({ ...user, passwordHash: passwordHashes[i]! })))
      .returning();
    const [teacher, director, creator] = DEMO_USERS.map((demo) => created.find((user) => user.username === demo.username)!);
    const firstYear = years[0]!;

    await tx.insert(memberships).values([
      { orgId: school.id, userId: teacher!.id, role: 'teacher', subjectId: subjectId('数学'), defaultClassId: firstYear.id },
      {
        orgId: school.id,
        userId: director!.id,
        role: 'teacher',
        gradeDirector: true,
        subjectId: subjectId('语文'),
        defaultClassId: firstYear.id,
      },
      // The school's first school year is the default of every member, as when a school creates it (school.service).
      { orgId: school.id, userId: creator!.id, role: 'creator', defaultClassId: firstYear.id },
    ]);
    // Duties: the teacher teaches maths to every 2026级 class and is class teacher of the first; the
    // director directs 2026级.
    const firstYearClasses = classRows.filter((klass) => klass.pid === firstYear.id);
    await tx.insert(teachingAssignments).values(
      firstYearClasses.map((klass) => ({
        orgId: school.id,
        userId: teacher!.id,
        classId: klass.id,
        subjectId: subjectId('数学')!,
      })),
    );
    await tx.insert(classTeachers).values({ orgId: school.id, userId: teacher!.id, classId: firstYearClasses[0]!.id });
    await tx.insert(gradeDirectors).values({ orgId: school.id, userId: director!.id, schoolYearId: firstYear.id });
    for (const user of [teacher!, director!, creator!]) {
      await tx.update(users).set({ defaultOrgId: school.id }).where(eq(users.id, user.id));
    }
    await tx.update(orgs).set({ createdBy: creator!.id }).where(eq(orgs.id, school.id));
    await seedPapersDemo(
      tx as unknown as Db,
      {
        orgId: school.id,
        schoolYearId: firstYear.id,
        authors: { 数学: teacher!.id, 语文: director!.id, 英语: creator!.id },
      },
      new Date(),
      { scanned: options.scanned ?? process.env.NODE_ENV !== 'test' },
    );
    if (options.semester ?? process.env.NODE_ENV !== 'test') await seedSemesterForSchool(tx as unknown as Db, school.id);
  });
  return true;
}
