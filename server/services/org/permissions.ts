/**
 * The permission module: one place answering "may this user do this to that" in a school, and which
 * classes and subjects of a school year a user may see. Roles: creator, admin, teacher; duties: grade
 * director of a school year, class teacher (班主任) of a class, subject teacher of (class, subject)
 * pairs. Services load an Actor once per call and ask `can` / `assertCan`; refusals are 403 with
 * 很抱歉，您暂无该操作权限. Pure decisions (`can`) are separate from the loading (`loadActor`), so the
 * matrix is testable without a database.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Role } from '../../../src/shared/contract/auth';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import {
  classes,
  classTeachers,
  gradeDirectors,
  homework,
  homeworkClasses,
  markingAssignments,
  memberships,
  papers,
  teachingAssignments,
  users,
} from '../../db/schema';
import { ApiError } from '../../lib/api-error';

export type Actor = {
  userId: number;
  orgId: number;
  role: Role;
  /** School years (class tree nodes of type 1) the user directs. */
  gradeDirectorOf: readonly number[];
  /** Classes the user is class teacher of. */
  classTeacherOf: readonly number[];
  /** (class, subject) pairs the user teaches. */
  teaches: readonly { classId: number; subjectId: number }[];
};

export type Action =
  /** School settings, structure (school years, classes, subjects), staff and invitations. */
  | { kind: 'school.manage' }
  /** Making someone creator, or changing a creator's role: creators only. */
  | { kind: 'school.appointCreator' }
  /** Changing or deleting something a user made (paper, question, homework): its owner and admins. */
  | { kind: 'owned.edit'; ownerId: number | null }
  /** The students of a class: admins, the school year's director, the class teacher, its subject teachers. */
  | { kind: 'class.manage'; classId: number; schoolYearId: number | null }
  /** Pairing and managing wall screens (大屏): admins any; a grade director those of their school years. */
  | { kind: 'screen.manage'; schoolYearId: number | null }

  /**
   * Assigning homework of a subject to classes: admins; otherwise, for every class, the director of its
   * school year, its class teacher or the teacher of that subject there.
   */
  | { kind: 'homework.assign'; subjectId: number; classes: readonly ClassRef[] }
  /**
   * Working on a homework (scanning its sheets, recording absences, resolving scan exceptions): its
   * owner, admins, its assigned markers, and the director, class teacher or subject teacher (of the
   * homework's subject) of one of its classes.
   */
  | {
      kind: 'homework.work';
      ownerId: number | null;
      markerIds: readonly number[];
      subjectId: number;
      classes: readonly ClassRef[];
    };

/** A class with the school year it belongs to. */
export type ClassRef = { classId: number; schoolYearId: number | null };

export const isManager = (actor: Pick<Actor, 'role'>) => actor.role === 'creator' || actor.role === 'admin';

/** The pure decision. */
export function can(actor: Actor, action: Action): boolean {
  switch (action.kind) {
    case 'school.manage':
      return isManager(actor);
    case 'school.appointCreator':
      return actor.role === 'creator';
    case 'owned.edit':
      return isManager(actor) || (action.ownerId !== null && action.ownerId === actor.userId);
    case 'class.manage':
      return (
        isManager(actor) ||
        (action.schoolYearId !== null && actor.gradeDirectorOf.includes(action.schoolYearId)) ||
        actor.classTeacherOf.includes(action.classId) ||
        actor.teaches.some((pair) => pair.classId === action.classId)
      );
    case 'screen.manage':
      return isManager(actor) || (action.schoolYearId !== null && actor.gradeDirectorOf.includes(action.schoolYearId));
    case 'homework.assign':
      return (
        isManager(actor) ||
        (action.classes.length > 0 && action.classes.every((klass) => leadsOrTeaches(actor, klass, action.subjectId)))
      );
    case 'homework.work':
      return (
        isManager(actor) ||
        (action.ownerId !== null && action.ownerId === actor.userId) ||
        action.markerIds.includes(actor.userId) ||
        action.classes.some((klass) => leadsOrTeaches(actor, klass, action.subjectId))
      );
  }
}

/** Directs the class's school year, is its class teacher, or teaches the subject in it. */
function leadsOrTeaches(actor: Actor, klass: ClassRef, subjectId: number): boolean {
  return (
    (klass.schoolYearId !== null && actor.gradeDirectorOf.includes(klass.schoolYearId)) ||
    actor.classTeacherOf.includes(klass.classId) ||
    actor.teaches.some((pair) => pair.classId === klass.classId && pair.subjectId === subjectId)
  );
}

export function assertCan(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw ApiError.forbidden();
}

/**
 * The caller as a member of `orgId`, or of their default school when none is given. Not a member of
 * the school named: 404 (another school's rows are not there for them); no default school: 403.
 */
export async function loadActor(db: Db, userId: number, orgId?: number): Promise<Actor> {
  const [membership] =
    orgId === undefined
      ? await db
          .select({ orgId: memberships.orgId, role: memberships.role })
          .from(users)
          .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, users.defaultOrgId)))
          .where(eq(users.id, userId))
      : await db
          .select({ orgId: memberships.orgId, role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.userId, userId), eq(memberships.orgId, orgId)));
  if (!membership) throw orgId === undefined ? ApiError.forbidden() : ApiError.notFound();
  const org = membership.orgId;
  const [directed, classTeacher, teaches] = await Promise.all([
    db
      .select({ id: gradeDirectors.schoolYearId })
      .from(gradeDirectors)
      .where(and(eq(gradeDirectors.orgId, org), eq(gradeDirectors.userId, userId))),
    db
      .select({ id: classTeachers.classId })
      .from(classTeachers)
      .where(and(eq(classTeachers.orgId, org), eq(classTeachers.userId, userId))),
    db
      .select({ classId: teachingAssignments.classId, subjectId: teachingAssignments.subjectId })
      .from(teachingAssignments)
      .where(and(eq(teachingAssignments.orgId, org), eq(teachingAssignments.userId, userId))),
  ]);
  return {
    userId,
    orgId: org,
    role: membership.role as Role,
    gradeDirectorOf: directed.map((row) => row.id),
    classTeacherOf: classTeacher.map((row) => row.id),
    teaches,
  };
}

/** Loads the caller in their default school and asserts the action. */
export async function requirePermission(db: Db, userId: number, action: Action, orgId?: number): Promise<Actor> {
  const actor = await loadActor(db, userId, orgId);
  assertCan(actor, action);
  return actor;
}

/** What a user may see of one school year: the whole year, or some classes with all or some subjects. */
export type YearScope = {
  schoolYearId: number;
  wholeYear: boolean;
  /** Every visible class with the subjects visible in it ('all' for every subject). */
  classes: { classId: number; subjects: number[] | 'all' }[];
};

/**
 * The classes (and subjects) of a school year the actor may see in analysis: creators and admins the
 * whole school, a grade director their school year, a class teacher all subjects of their classes, a
 * subject teacher their (class, subject) pairs and the classes of the homework they own. Archived
 * classes are included (history stays readable).
 */
export async function visibleScope(db: Db, actor: Actor, schoolYearId: number): Promise<YearScope> {
  const yearClasses = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, actor.orgId), eq(classes.pid, schoolYearId), eq(classes.type, CLASS_TYPE.klass)));
  const inYear = new Set(yearClasses.map((row) => row.id));
  if (isManager(actor) || actor.gradeDirectorOf.includes(schoolYearId)) {
    return { schoolYearId, wholeYear: true, classes: [...inYear].map((classId) => ({ classId, subjects: 'all' })) };
  }
  const visible = new Map<number, Set<number> | 'all'>();
  const addSubject = (classId: number, subjectId: number) => {
    if (!inYear.has(classId)) return;
    const current = visible.get(classId);
    if (current === 'all') return;
    if (current) current.add(subjectId);
    else visible.set(classId, new Set([subjectId]));
  };
  for (const classId of actor.classTeacherOf) if (inYear.has(classId)) visible.set(classId, 'all');
  for (const pair of actor.teaches) addSubject(pair.classId, pair.subjectId);
  if (inYear.size > 0) {
    const owned = await db
      .select({ classId: homeworkClasses.classId, subjectId: papers.subjectId })
      .from(homework)
      .innerJoin(homeworkClasses, eq(homeworkClasses.homeworkId, homework.id))
      .innerJoin(papers, eq(papers.id, homework.paperId))
      .where(
        and(eq(homework.orgId, actor.orgId), eq(homework.createdBy, actor.userId), inArray(homeworkClasses.classId, [...inYear])),
      );
    for (const row of owned) addSubject(row.classId, row.subjectId);
  }
  return {
    schoolYearId,
    wholeYear: false,
    classes: [...visible.entries()]
      .sort(([a], [b]) => a - b)
      .map(([classId, subjects]) => ({ classId, subjects: subjects === 'all' ? 'all' : [...subjects].sort((a, b) => a - b) })),
  };
}

/** Whether a (class, subject) of the year is visible in a scope. */
export function scopeAllows(scope: YearScope, classId: number, subjectId?: number): boolean {
  const entry = scope.classes.find((item) => item.classId === classId);
  if (!entry) return false;
  return subjectId === undefined || entry.subjects === 'all' || entry.subjects.includes(subjectId);
}

/** The school year a class belongs to (null for an unknown class or a school year itself). */
export async function schoolYearOf(db: Db, orgId: number, classId: number): Promise<number | null> {
  const [row] = await db
    .select({ pid: classes.pid })
    .from(classes)
    .where(and(eq(classes.id, classId), eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.klass)));
  return row?.pid ?? null;
}

/** The classes of a homework with their school years. */
export async function homeworkClassRefs(db: Db, homeworkId: number): Promise<ClassRef[]> {
  return db
    .select({ classId: homeworkClasses.classId, schoolYearId: classes.pid })
    .from(homeworkClasses)
    .innerJoin(classes, eq(classes.id, homeworkClasses.classId))
    .where(eq(homeworkClasses.homeworkId, homeworkId));
}

/** Classes of a school with their school years (unknown ids are left out). */
export async function classRefs(db: Db, orgId: number, classIds: readonly number[]): Promise<ClassRef[]> {
  if (classIds.length === 0) return [];
  return db
    .select({ classId: classes.id, schoolYearId: classes.pid })
    .from(classes)
    .where(and(eq(classes.orgId, orgId), inArray(classes.id, [...classIds]), eq(classes.type, CLASS_TYPE.klass)));
}

/**
 * Asserts the actor may work on a homework of their school (see 'homework.work'): loads its subject,
 * classes and assigned markers.
 */
export async function assertWorksOn(
  db: Db,
  actor: Actor,
  row: { id: number; createdBy: number | null; paperId: number },
): Promise<void> {
  if (isManager(actor) || row.createdBy === actor.userId) return;
  const [[paper], markers, klasses] = await Promise.all([
    db.select({ subjectId: papers.subjectId }).from(papers).where(eq(papers.id, row.paperId)),
    db
      .selectDistinct({ userId: markingAssignments.userId })
      .from(markingAssignments)
      .where(eq(markingAssignments.homeworkId, row.id)),
    homeworkClassRefs(db, row.id),
  ]);
  assertCan(actor, {
    kind: 'homework.work',
    ownerId: row.createdBy,
    markerIds: markers.map((m) => m.userId),
    subjectId: paper?.subjectId ?? -1,
    classes: klasses,
  });
}

/** Keeps memberships.gradeDirector (the spec's userGradeInfo flag) equal to "directs a school year". */
export async function syncGradeDirectorFlag(db: Db, orgId: number, userId: number): Promise<void> {
  const [row] = await db
    .select({ id: gradeDirectors.id })
    .from(gradeDirectors)
    .innerJoin(classes, and(eq(classes.id, gradeDirectors.schoolYearId), isNull(classes.archivedAt)))
    .where(and(eq(gradeDirectors.orgId, orgId), eq(gradeDirectors.userId, userId)))
    .limit(1);
  await db
    .update(memberships)
    .set({ gradeDirector: Boolean(row) })
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
}
