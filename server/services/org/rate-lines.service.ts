/**
 * 各学年学科分数线: a school's 优秀 / 良好 / 及格 / 低分 lines per school year and subject, overriding the
 * school's own (orgs.*_percent). Members of the school read them; the creator and admins edit every
 * school year's, a grade director their own school year's. Another school's answer 404.
 * `loadRateLines` is the one place analysis resolves the lines (analysis-scope.ts).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { RateLinesInput, RateLinesList } from '../../../src/shared/contract/rate-lines';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import { DEFAULT_RATE_LINES, type RateLines } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import { classes, orgs, subjectRateLines, subjects } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { type Actor, isManager, loadActor } from './permissions';

type Percents = { excellentPercent: number; goodPercent: number; passPercent: number; lowPercent: number };

const toFractions = (p: Percents): RateLines => ({
  excellent: p.excellentPercent / 100,
  good: p.goodPercent / 100,
  pass: p.passPercent / 100,
  low: p.lowPercent / 100,
});

/** The school's lines and its overrides, as fractions of the full mark; `linesFor` picks one homework's. */
export type SchoolRateLines = {
  school: RateLines;
  linesFor: (schoolYearId: number, subjectId: number) => RateLines;
};

/** The school's own lines (in percent), as one row or none. */
const schoolLines = (db: Db, orgId: number) =>
  db
    .select({
      excellentPercent: orgs.excellentPercent,
      goodPercent: orgs.goodPercent,
      passPercent: orgs.passPercent,
      lowPercent: orgs.lowPercent,
    })
    .from(orgs)
    .where(eq(orgs.id, orgId));

export async function loadRateLines(db: Db, orgId: number): Promise<SchoolRateLines> {
  const [[org], rows] = await Promise.all([
    schoolLines(db, orgId),
    db.select().from(subjectRateLines).where(eq(subjectRateLines.orgId, orgId)),
  ]);
  const school = org ? toFractions(org) : DEFAULT_RATE_LINES;
  const overrides = new Map(rows.map((row) => [`${row.schoolYearId}:${row.subjectId}`, toFractions(row)]));
  return { school, linesFor: (schoolYearId, subjectId) => overrides.get(`${schoolYearId}:${subjectId}`) ?? school };
}

const editableYears = (actor: Actor, yearIds: readonly number[]) =>
  isManager(actor) ? [...yearIds] : yearIds.filter((id) => actor.gradeDirectorOf.includes(id));

export function createRateLinesService({ db }: { db: Db }) {
  async function schoolYearIds(orgId: number) {
    const rows = await db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear)));
    return rows.map((row) => row.id);
  }

  async function list(userId: number, orgId: number): Promise<RateLinesList> {
    const actor = await loadActor(db, userId, orgId);
    const [[org], rows, years] = await Promise.all([
      schoolLines(db, orgId),
      db
        .select({
          schoolYearId: subjectRateLines.schoolYearId,
          schoolYearName: classes.name,
          subjectId: subjectRateLines.subjectId,
          subjectName: subjects.name,
          excellentPercent: subjectRateLines.excellentPercent,
          goodPercent: subjectRateLines.goodPercent,
          passPercent: subjectRateLines.passPercent,
          lowPercent: subjectRateLines.lowPercent,
        })
        .from(subjectRateLines)
        .innerJoin(classes, eq(classes.id, subjectRateLines.schoolYearId))
        .innerJoin(subjects, eq(subjects.id, subjectRateLines.subjectId))
        .where(eq(subjectRateLines.orgId, orgId))
        .orderBy(asc(classes.sort), asc(classes.id), asc(subjects.sort), asc(subjects.id)),
      schoolYearIds(orgId),
    ]);
    if (!org) throw ApiError.notFound();
    return { defaults: org, items: rows, editableSchoolYearIds: editableYears(actor, years) };
  }

  /** The school year and subject must be this school's (404 otherwise); the caller must be allowed (403). */
  async function requireEditable(userId: number, orgId: number, schoolYearId: number, subjectId: number) {
    const actor = await loadActor(db, userId, orgId);
    const [[year], [subject]] = await Promise.all([
      db
        .select({ id: classes.id })
        .from(classes)
        .where(and(eq(classes.id, schoolYearId), eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear))),
      db
        .select({ id: subjects.id })
        .from(subjects)
        .where(and(eq(subjects.id, subjectId), eq(subjects.orgId, orgId))),
    ]);
    if (!year || !subject) throw ApiError.notFound();
    if (!isManager(actor) && !actor.gradeDirectorOf.includes(schoolYearId)) throw ApiError.forbidden();
  }

  return {
    list,

    async save(userId: number, orgId: number, schoolYearId: number, subjectId: number, input: RateLinesInput) {
      await requireEditable(userId, orgId, schoolYearId, subjectId);
      const values = {
        excellentPercent: input.excellentPercent,
        goodPercent: input.goodPercent,
        passPercent: input.passPercent,
        lowPercent: input.lowPercent,
        updatedAt: new Date(),
      };
      await db
        .insert(subjectRateLines)
        .values({ orgId, schoolYearId, subjectId, ...values })
        .onConflictDoUpdate({ target: [subjectRateLines.schoolYearId, subjectRateLines.subjectId], set: values });
      return list(userId, orgId);
    },

    async remove(userId: number, orgId: number, schoolYearId: number, subjectId: number) {
      await requireEditable(userId, orgId, schoolYearId, subjectId);
      await db
        .delete(subjectRateLines)
        .where(and(eq(subjectRateLines.schoolYearId, schoolYearId), eq(subjectRateLines.subjectId, subjectId)));
      return list(userId, orgId);
    },
  };
}
