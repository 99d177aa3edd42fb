/**
 * Who sees which analysis, from the session's user only (never from a request's filters): the permission
 * module decides it (`loadActor` + `visibleScope` per school year of the caller's school: creators and
 * admins the whole school, a grade director their school year, a class teacher every subject of their
 * classes, a subject teacher their (class, subject) pairs and the classes of the homework they own).
 * Nobody sees another school: every lookup filters on the caller's school, and another school's rows
 * answer 404.
 */
import { and, eq } from 'drizzle-orm';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { RateLines } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import { classes, orgs } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { loadActor, visibleScope } from '../org/permissions';
import { loadRateLines } from '../org/rate-lines.service';

export type AnalysisScope = {
  userId: number;
  orgId: number;
  gradeDirector: boolean;
  /** School years the caller directs (data centre). */
  directedSchoolYearIds: number[];
  /** null = every subject of the class. */
  visible: Map<number, Set<number> | null>;
  /**
   * The 优秀 / 良好 / 及格 / 低分 lines (fractions of the full mark) for a homework's school year and
   * subject: that pair's override (subject_rate_lines), else the school's (orgs.*_percent).
   */
  linesFor: (schoolYearId: number, subjectId: number) => RateLines;
  /** 小学 | 初中 | 高中 | 完全中学: the default for ranks. */
  schoolType: string;
};

export async function resolveAnalysisScope(db: Db, userId: number): Promise<AnalysisScope> {
  const actor = await loadActor(db, userId);
  const years = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, actor.orgId), eq(classes.type, CLASS_TYPE.schoolYear)));
  const [scopes, [school], rateLines] = await Promise.all([
    Promise.all(years.map((year) => visibleScope(db, actor, year.id))),
    db.select({ schoolType: orgs.schoolType }).from(orgs).where(eq(orgs.id, actor.orgId)),
    loadRateLines(db, actor.orgId),
  ]);
  const visible = new Map<number, Set<number> | null>();
  for (const scope of scopes) {
    for (const entry of scope.classes) visible.set(entry.classId, entry.subjects === 'all' ? null : new Set(entry.subjects));
  }
  return {
    userId,
    orgId: actor.orgId,
    gradeDirector: actor.gradeDirectorOf.length > 0,
    directedSchoolYearIds: [...actor.gradeDirectorOf],
    visible,
    linesFor: rateLines.linesFor,
    schoolType: school?.schoolType ?? '初中',
  };
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
