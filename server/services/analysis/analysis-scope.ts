/**
 * Who sees which analysis: the one place that decides it, from the session's user only (never from a
 * request's filters). Until the school permission module is wired in:
 * - a grade director (memberships.grade_director) sees every class and subject of the school year they
 *   direct (their default school year; every school year when none is set);
 * - the school's creator and admins see the whole school;
 * - a teacher sees the classes and subjects of the homework they own, and their own subject in the
 *   classes of their default school year.
 * Nobody sees another school: every lookup filters on the caller's school, and another school's rows
 * answer 404.
 */
import { and, eq } from 'drizzle-orm';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, homework, homeworkClasses, memberships, papers, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';

export type AnalysisScope = {
  userId: number;
  orgId: number;
  gradeDirector: boolean;
  /** School years the caller directs (data centre). */
  directedSchoolYearIds: number[];
  /** null = every subject of the class. */
  visible: Map<number, Set<number> | null>;
};

export async function resolveAnalysisScope(db: Db, userId: number): Promise<AnalysisScope> {
  const [member] = await db
    .select({
      orgId: memberships.orgId,
      role: memberships.role,
      gradeDirector: memberships.gradeDirector,
      subjectId: memberships.subjectId,
      defaultClassId: memberships.defaultClassId,
    })
    .from(users)
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.orgId, users.defaultOrgId)))
    .where(eq(users.id, userId));
  if (!member) throw ApiError.forbidden();
  const orgId = member.orgId;
  const klasses = await db
    .select({ id: classes.id, schoolYearId: classes.pid })
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.klass)));
  const visible = new Map<number, Set<number> | null>();
  const add = (classId: number, subjectId: number | null) => {
    const current = visible.get(classId);
    if (current === null) return;
    if (subjectId === null) return void visible.set(classId, null);
    visible.set(classId, (current ?? new Set()).add(subjectId));
  };

  let directedSchoolYearIds: number[] = [];
  if (member.gradeDirector) {
    const allYears = [...new Set(klasses.map((k) => k.schoolYearId).filter((id): id is number => id !== null))];
    directedSchoolYearIds =
      member.defaultClassId !== null && allYears.includes(member.defaultClassId) ? [member.defaultClassId] : allYears;
  }
  const wholeSchool = member.role === 'creator' || member.role === 'admin';
  for (const klass of klasses) {
    if (wholeSchool || (klass.schoolYearId !== null && directedSchoolYearIds.includes(klass.schoolYearId))) add(klass.id, null);
    else if (member.subjectId !== null && klass.schoolYearId === member.defaultClassId) add(klass.id, member.subjectId);
  }
  const owned = await db
    .select({ classId: homeworkClasses.classId, subjectId: papers.subjectId })
    .from(homework)
    .innerJoin(papers, eq(papers.id, homework.paperId))
    .innerJoin(homeworkClasses, eq(homeworkClasses.homeworkId, homework.id))
    .where(and(eq(homework.orgId, orgId), eq(homework.createdBy, userId)));
  for (const row of owned) add(row.classId, row.subjectId);
  return { userId, orgId, gradeDirector: member.gradeDirector, directedSchoolYearIds, visible };
}

export function canSee(scope: AnalysisScope, classId: number, subjectId: number): boolean {
  if (!scope.visible.has(classId)) return false;
  const subjects = scope.visible.get(classId);
  return subjects === null || subjects!.has(subjectId);
}

/** The data centre is for grade directors only: everyone else gets 很抱歉，您暂无该操作权限. */
export function requireGradeDirector(scope: AnalysisScope, schoolYearId?: number) {
  if (!scope.gradeDirector) throw ApiError.forbidden();
  if (schoolYearId !== undefined && !scope.directedSchoolYearIds.includes(schoolYearId)) throw ApiError.forbidden();
}

export function visibleClassIds(scope: AnalysisScope, subjectId: number, classIds: readonly number[]) {
  return classIds.filter((id) => canSee(scope, id, subjectId));
}
