/**
 * Test helpers for the org endpoints: staff of the demo school with one duty each, ids of the demo
 * school's structure, and a user without any school.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  classes,
  classTeachers,
  gradeDirectors,
  memberships,
  subjects,
  teachingAssignments,
  users,
} from '../../../server/db/schema';
import { DEMO_PASSWORD, DEMO_SCHOOL_NAME } from '../../../server/db/seed';
import { orgs } from '../../../server/db/schema';
import { hashPassword } from '../../../server/services/auth/password-hasher';

let passwordHash: string | undefined;

/** A user with the demo password, in no school. */
export async function addUser(app: FastifyInstance, username: string, nickname = username) {
  passwordHash ??= await hashPassword(DEMO_PASSWORD);
  const [user] = await app.database.db.insert(users).values({ username, nickname, passwordHash }).returning({ id: users.id });
  return user!.id;
}

/** The demo school's ids: the school, 2026级 and its classes, 数学. */
export async function demoSchool(app: FastifyInstance) {
  const db = app.database.db;
  const [org] = await db.select().from(orgs).where(eq(orgs.name, DEMO_SCHOOL_NAME));
  const years = await db
    .select()
    .from(classes)
    .where(and(eq(classes.orgId, org!.id), eq(classes.type, 1)));
  const year = years.sort((a, b) => a.sort - b.sort)[0]!;
  const yearClasses = (await db.select().from(classes).where(eq(classes.pid, year.id))).sort((a, b) => a.sort - b.sort);
  const [math] = await db
    .select()
    .from(subjects)
    .where(and(eq(subjects.orgId, org!.id), eq(subjects.name, '数学')));
  return { orgId: org!.id, schoolYearId: year.id, classIds: yearClasses.map((c) => c.id), mathId: math!.id };
}

/** A member of a school with a role and duties, working in it by default. */
export async function addMember(
  app: FastifyInstance,
  username: string,
  orgId: number,
  options: {
    role?: 'creator' | 'admin' | 'teacher';
    gradeDirectorOf?: number[];
    classTeacherOf?: number[];
    teaches?: { classId: number; subjectId: number }[];
  } = {},
) {
  const db = app.database.db;
  const userId = await addUser(app, username);
  await db.insert(memberships).values({
    orgId,
    userId,
    role: options.role ?? 'teacher',
    gradeDirector: (options.gradeDirectorOf ?? []).length > 0,
  });
  await db.update(users).set({ defaultOrgId: orgId }).where(eq(users.id, userId));
  for (const schoolYearId of options.gradeDirectorOf ?? [])
    await db.insert(gradeDirectors).values({ orgId, userId, schoolYearId });
  for (const classId of options.classTeacherOf ?? []) await db.insert(classTeachers).values({ orgId, userId, classId });
  for (const pair of options.teaches ?? []) await db.insert(teachingAssignments).values({ orgId, userId, ...pair });
  return userId;
}
