/**
 * What a large screen may show, and the socket.io rooms that follow from it: a paired screen's scope
 * (school, school year or class), or a teacher's own (the permission module's visibleScope over every
 * school year of their school). Room names carry the school, so no id of one school names a room of
 * another. Owns the decision and the names; the realtime plugin joins and emits.
 */
import { and, eq } from 'drizzle-orm';
import type { ScreenPanel } from '../../../src/shared/contract/large-screen';
import { SCREEN_PANELS } from '../../../src/shared/contract/large-screen';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import { ranksAllowed } from '../../../src/shared/lib/analysis-stats';
import type { Db } from '../../db/client';
import { classes, homework, homeworkClasses, orgs, papers } from '../../db/schema';
import { isManager, loadActor, visibleScope } from '../org/permissions';

export const schoolRoom = (orgId: number) => `school:${orgId}`;
export const yearRoom = (orgId: number, schoolYearId: number) => `school:${orgId}:year:${schoolYearId}`;
export const classRoom = (orgId: number, classId: number) => `school:${orgId}:class:${classId}`;
export const screenRoom = (screenId: number) => `screen:${screenId}`;

export type ScreenScope = {
  orgId: number;
  schoolName: string;
  /** The screen's name, or the teacher's view. */
  title: string;
  scopeLabel: string;
  screenId: number | null;
  panels: ScreenPanel[];
  showNames: boolean;
  /** Visible classes with their visible subjects ('all' for every subject). */
  classes: Map<number, Set<number> | 'all'>;
  /** The socket rooms of this scope. */
  rooms: string[];
};

export function scopeAllowsHomework(scope: ScreenScope, classIds: readonly number[], subjectId: number): number[] {
  return classIds.filter((id) => {
    const subjects = scope.classes.get(id);
    return subjects === 'all' || (subjects !== undefined && subjects.has(subjectId));
  });
}

type ClassRow = { id: number; name: string; pid: number | null; type: number };

async function treeOf(db: Db, orgId: number): Promise<ClassRow[]> {
  return db
    .select({ id: classes.id, name: classes.name, pid: classes.pid, type: classes.type })
    .from(classes)
    .where(eq(classes.orgId, orgId));
}

async function schoolNameOf(db: Db, orgId: number): Promise<string> {
  const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, orgId));
  return org?.name ?? '';
}

export type ScreenRow = {
  id: number;
  orgId: number;
  name: string;
  scopeKind: string;
  schoolYearId: number | null;
  classId: number | null;
  panels: string[];
  showNames: boolean;
};

/** The label of a screen's scope: 全校, the school year's name, or the school year and class. */
export function scopeLabelOf(tree: readonly ClassRow[], row: Pick<ScreenRow, 'scopeKind' | 'schoolYearId' | 'classId'>): string {
  if (row.scopeKind === 'school') return '全校';
  const year = tree.find((c) => c.id === row.schoolYearId);
  if (row.scopeKind === 'schoolYear') return year?.name ?? '';
  const klass = tree.find((c) => c.id === row.classId);
  return `${year?.name ?? ''} ${klass?.name ?? ''}`.trim();
}

export async function scopeOfScreen(db: Db, row: ScreenRow): Promise<ScreenScope> {
  const tree = await treeOf(db, row.orgId);
  const klasses = tree.filter((c) => c.type === CLASS_TYPE.klass);
  const chosen =
    row.scopeKind === 'school'
      ? klasses
      : row.scopeKind === 'schoolYear'
        ? klasses.filter((c) => c.pid === row.schoolYearId)
        : klasses.filter((c) => c.id === row.classId);
  const rooms =
    row.scopeKind === 'school'
      ? [schoolRoom(row.orgId)]
      : row.scopeKind === 'schoolYear'
        ? [yearRoom(row.orgId, row.schoolYearId!)]
        : [classRoom(row.orgId, row.classId!)];
  return {
    orgId: row.orgId,
    schoolName: await schoolNameOf(db, row.orgId),
    title: row.name,
    scopeLabel: scopeLabelOf(tree, row),
    screenId: row.id,
    panels: SCREEN_PANELS.filter((p) => row.panels.includes(p)),
    showNames: row.showNames,
    classes: new Map(chosen.map((c) => [c.id, 'all' as const])),
    rooms: [...rooms, screenRoom(row.id)],
  };
}

/** A teacher projecting /largescreen: what visibleScope lets them see in their default school. */
export async function scopeOfUser(db: Db, userId: number): Promise<ScreenScope> {
  const actor = await loadActor(db, userId);
  const tree = await treeOf(db, actor.orgId);
  const visible = new Map<number, Set<number> | 'all'>();
  const rooms = isManager(actor) ? [schoolRoom(actor.orgId)] : [];
  for (const year of tree.filter((c) => c.type === CLASS_TYPE.schoolYear)) {
    const scope = await visibleScope(db, actor, year.id);
    if (scope.wholeYear && !isManager(actor)) rooms.push(yearRoom(actor.orgId, year.id));
    for (const entry of scope.classes) {
      visible.set(entry.classId, entry.subjects === 'all' ? 'all' : new Set(entry.subjects));
      if (!scope.wholeYear) rooms.push(classRoom(actor.orgId, entry.classId));
    }
  }
  return {
    orgId: actor.orgId,
    schoolName: await schoolNameOf(db, actor.orgId),
    title: '教师投屏',
    scopeLabel: isManager(actor) ? '全校' : '我的班级',
    screenId: null,
    panels: [...SCREEN_PANELS],
    showNames: false,
    classes: visible,
    rooms,
  };
}

/** The rooms an event about one homework goes to: its school, its school year and its classes. */
export async function homeworkRooms(db: Db, orgId: number, homeworkId: number | null): Promise<string[]> {
  const rooms = [schoolRoom(orgId)];
  if (homeworkId === null) return rooms;
  // One round trip per event: the school year and every class in one answer (a homework without classes
  // yet answers one row with no class).
  const rows = await db
    .select({ schoolYearId: papers.schoolYearId, classId: homeworkClasses.classId })
    .from(homework)
    .innerJoin(papers, eq(papers.id, homework.paperId))
    .leftJoin(homeworkClasses, eq(homeworkClasses.homeworkId, homework.id))
    .where(and(eq(homework.id, homeworkId), eq(homework.orgId, orgId)));
  if (rows.length === 0) return rooms;
  const classIds = rows.flatMap((row) => (row.classId === null ? [] : [row.classId]));
  return [...rooms, yearRoom(orgId, rows[0]!.schoolYearId), ...classIds.map((id) => classRoom(orgId, id))];
}

/**
 * Whether students' names (and so ranks) may be shown for a school year: the analysis rule (the school's
 * type, and the year's own setting on /team/details), never a second one.
 */
export async function namesAllowedForYears(db: Db, orgId: number): Promise<Map<number, boolean>> {
  const [school] = await db.select({ schoolType: orgs.schoolType }).from(orgs).where(eq(orgs.id, orgId));
  const years = await db
    .select({ id: classes.id, name: classes.name, ranksEnabled: classes.ranksEnabled })
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, CLASS_TYPE.schoolYear)));
  return new Map(years.map((year) => [year.id, ranksAllowed(year.name, school?.schoolType, year.ranksEnabled)]));
}
