/**
 * The school a caller works in: the user's default school, which they must still be a member of. Every
 * question-bank, paper, homework and student call resolves it first; a user without one gets a 403.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, memberships, subjects, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { requirePermission, schoolYearOf } from '../org/permissions';

export type SchoolScope = { userId: number; orgId: number };

export async function requireSchool(db: Db, userId: number): Promise<SchoolScope> {
  const [row] = await db
    .select({ orgId: memberships.orgId })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, users.defaultOrgId)))
    .where(eq(users.id, userId));
  if (!row) throw ApiError.forbidden();
  return { userId, orgId: row.orgId };
}

/**
 * Changing or deleting what a colleague made (a paper, a question, a homework): its owner and the
 * school's admins may; anyone else in the school reads (and copies) it and gets a 403 here.
 */
export async function requireOwnerOrAdmin(db: Db, scope: SchoolScope, ownerId: number | null): Promise<void> {
  if (ownerId !== null && ownerId === scope.userId) return;
  await requirePermission(db, scope.userId, { kind: 'owned.edit', ownerId }, scope.orgId);
}

/** Changing a class's students: admins, the director of its school year, its class and subject teachers. */
export async function requireClassManager(db: Db, scope: SchoolScope, classId: number): Promise<void> {
  const schoolYearId = await schoolYearOf(db, scope.orgId, classId);
  await requirePermission(db, scope.userId, { kind: 'class.manage', classId, schoolYearId }, scope.orgId);
}

/** A subject of the school, or a 404. */
export async function requireSubject(db: Db, scope: SchoolScope, subjectId: number) {
  const [subject] = await db
    .select({ id: subjects.id, name: subjects.name })
    .from(subjects)
    .where(and(eq(subjects.id, subjectId), eq(subjects.orgId, scope.orgId)));
  if (!subject) throw ApiError.notFound();
  return subject;
}

/**
 * The subjects whose shared bank a school subject reads: the shared bank hangs on the demo school's
 * subjects, and every school's subject of the same name reads it.
 */
export async function sameNameSubjectIds(db: Db, name: string): Promise<number[]> {
  const rows = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.name, name));
  return rows.map((row) => row.id);
}

/** A school year (class tree node of type 1) of the school, or a 400 naming the field. */
export async function requireSchoolYear(db: Db, scope: SchoolScope, schoolYearId: number) {
  const [year] = await db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .where(and(eq(classes.id, schoolYearId), eq(classes.orgId, scope.orgId), eq(classes.type, CLASS_TYPE.schoolYear)));
  if (!year) throw ApiError.badRequest('学年不存在');
  return year;
}

/** Classes (type 2) of the school, in the order asked; any other id is a 400. */
export async function requireClasses(db: Db, scope: SchoolScope, classIds: number[]) {
  const unique = [...new Set(classIds)];
  const rows = await db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .where(and(inArray(classes.id, unique), eq(classes.orgId, scope.orgId), eq(classes.type, CLASS_TYPE.klass)));
  if (rows.length !== unique.length) throw ApiError.badRequest('班级不存在');
  return unique.map((id) => rows.find((row) => row.id === id)!);
}

/** One class of the school, or a 404. */
export async function requireClass(db: Db, scope: SchoolScope, classId: number) {
  const [row] = await db
    .select({ id: classes.id, name: classes.name })
    .from(classes)
    .where(and(eq(classes.id, classId), eq(classes.orgId, scope.orgId), eq(classes.type, CLASS_TYPE.klass)));
  if (!row) throw ApiError.notFound();
  return row;
}
