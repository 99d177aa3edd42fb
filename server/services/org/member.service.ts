/**
 * The staff of a school: who is in it with their roles and duties (grade director of school years,
 * class teacher of classes, subject teacher of (class, subject) pairs), changing those, removing a
 * member and leaving. A removed member's papers and homework stay with the school. The school always
 * keeps at least one creator; only a creator makes or unmakes creators (so ownership moves in two
 * steps: appoint a second creator, then step down).
 */
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import type { CurrentUser, Role } from '../../../src/shared/contract/auth';
import { type Member, ORG_MESSAGES, type UpdateMember } from '../../../src/shared/contract/org';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, classTeachers, gradeDirectors, memberships, subjects, teachingAssignments, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { maskMobile } from '../user/user.service';
import { assertCan, loadActor, syncGradeDirectorFlag } from './permissions';

type UpdateMemberData = UpdateMember;

/** Checks that ids are nodes of the given type in the school; answers a 400 otherwise. */
export async function requireNodes(db: Db, orgId: number, ids: number[], type: number, message: string) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.orgId, orgId), eq(classes.type, type), inArray(classes.id, unique)));
  if (rows.length !== unique.length) throw ApiError.badRequest(message);
}

export async function requireSubjects(db: Db, orgId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const rows = await db
    .select({ id: subjects.id })
    .from(subjects)
    .where(and(eq(subjects.orgId, orgId), inArray(subjects.id, unique)));
  if (rows.length !== unique.length) throw ApiError.badRequest('学科不存在');
}

/** Writes a member's duties (replacing theirs) and keeps the gradeDirector flag in step. */
export async function writeDuties(
  tx: Db,
  orgId: number,
  userId: number,
  duties: { gradeDirectorOf: number[]; classTeacherOf: number[]; assignments: { classId: number; subjectId: number }[] },
) {
  await tx.delete(gradeDirectors).where(and(eq(gradeDirectors.orgId, orgId), eq(gradeDirectors.userId, userId)));
  await tx.delete(classTeachers).where(and(eq(classTeachers.orgId, orgId), eq(classTeachers.userId, userId)));
  await tx.delete(teachingAssignments).where(and(eq(teachingAssignments.orgId, orgId), eq(teachingAssignments.userId, userId)));
  const years = [...new Set(duties.gradeDirectorOf)];
  if (years.length > 0) await tx.insert(gradeDirectors).values(years.map((schoolYearId) => ({ orgId, userId, schoolYearId })));
  const own = [...new Set(duties.classTeacherOf)];
  if (own.length > 0) {
    // One class teacher per class: appointing this member replaces whoever had the class.
    await tx.delete(classTeachers).where(and(eq(classTeachers.orgId, orgId), inArray(classTeachers.classId, own)));
    await tx.insert(classTeachers).values(own.map((classId) => ({ orgId, userId, classId })));
  }
  const pairs = [...new Map(duties.assignments.map((a) => [`${a.classId}:${a.subjectId}`, a])).values()];
  if (pairs.length > 0) await tx.insert(teachingAssignments).values(pairs.map((a) => ({ orgId, userId, ...a })));
  await syncGradeDirectorFlag(tx, orgId, userId);
}

export type MemberService = ReturnType<typeof createMemberService>;

export function createMemberService({ db, currentUser }: { db: Db; currentUser: (userId: number) => Promise<CurrentUser> }) {
  async function requireMember(orgId: number, userId: number) {
    const [row] = await db
      .select({ id: memberships.id, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
    if (!row) throw ApiError.notFound();
    return row;
  }

  async function otherCreators(orgId: number, userId: number) {
    const [row] = await db
      .select({ value: count() })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.role, 'creator'), ne(memberships.userId, userId)));
    return row?.value ?? 0;
  }

  /** Takes a user out of a school: their duties go, their work stays with the school. */
  async function removeFromSchool(orgId: number, userId: number) {
    await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await writeDuties(tx, orgId, userId, { gradeDirectorOf: [], classTeacherOf: [], assignments: [] });
      await tx.delete(memberships).where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
      const [next] = await tx
        .select({ orgId: memberships.orgId })
        .from(memberships)
        .where(eq(memberships.userId, userId))
        .orderBy(asc(memberships.id))
        .limit(1);
      const [user] = await tx.select({ defaultOrgId: users.defaultOrgId }).from(users).where(eq(users.id, userId));
      if (user?.defaultOrgId === orgId) {
        await tx
          .update(users)
          .set({ defaultOrgId: next?.orgId ?? null })
          .where(eq(users.id, userId));
      }
    });
  }

  return {
    /** Everyone in the school with roles and duties (any member may read: colleagues). */
    async list(userId: number, orgId: number): Promise<Member[]> {
      await loadActor(db, userId, orgId);
      const [rows, directed, classTeacher, teaches] = await Promise.all([
        db
          .select({
            userId: memberships.userId,
            nickname: users.nickname,
            mobile: users.mobile,
            role: memberships.role,
            joinedAt: memberships.createdAt,
          })
          .from(memberships)
          .innerJoin(users, eq(users.id, memberships.userId))
          .where(eq(memberships.orgId, orgId))
          .orderBy(asc(memberships.id)),
        db.select().from(gradeDirectors).where(eq(gradeDirectors.orgId, orgId)),
        db.select().from(classTeachers).where(eq(classTeachers.orgId, orgId)),
        db.select().from(teachingAssignments).where(eq(teachingAssignments.orgId, orgId)),
      ]);
      return rows.map((row) => ({
        userId: row.userId,
        nickname: row.nickname,
        mobile: maskMobile(row.mobile),
        role: row.role as Role,
        gradeDirectorOf: directed.filter((d) => d.userId === row.userId).map((d) => d.schoolYearId),
        classTeacherOf: classTeacher.filter((c) => c.userId === row.userId).map((c) => c.classId),
        assignments: teaches.filter((a) => a.userId === row.userId).map((a) => ({ classId: a.classId, subjectId: a.subjectId })),
        joinedAt: row.joinedAt.toISOString(),
      }));
    },

    /** Role and duties of a member, each replaced as a whole. */
    async update(userId: number, orgId: number, memberId: number, input: UpdateMemberData): Promise<null> {
      const actor = await loadActor(db, userId, orgId);
      assertCan(actor, { kind: 'school.manage' });
      const member = await requireMember(orgId, memberId);
      if (member.role !== input.role && (member.role === 'creator' || input.role === 'creator')) {
        assertCan(actor, { kind: 'school.appointCreator' });
        if (member.role === 'creator' && (await otherCreators(orgId, memberId)) === 0) {
          throw ApiError.badRequest(ORG_MESSAGES.lastCreator);
        }
      }
      await requireNodes(db, orgId, input.gradeDirectorOf, CLASS_TYPE.schoolYear, '学年不存在');
      await requireNodes(
        db,
        orgId,
        [...input.classTeacherOf, ...input.assignments.map((a) => a.classId)],
        CLASS_TYPE.klass,
        '班级不存在',
      );
      await requireSubjects(
        db,
        orgId,
        input.assignments.map((a) => a.subjectId),
      );
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.update(memberships).set({ role: input.role }).where(eq(memberships.id, member.id));
        await writeDuties(tx, orgId, memberId, input);
      });
      return null;
    },

    /** An admin removes a member (a creator only by a creator; never the last creator). */
    async remove(userId: number, orgId: number, memberId: number): Promise<null> {
      const actor = await loadActor(db, userId, orgId);
      assertCan(actor, { kind: 'school.manage' });
      const member = await requireMember(orgId, memberId);
      if (member.role === 'creator') {
        assertCan(actor, { kind: 'school.appointCreator' });
        if ((await otherCreators(orgId, memberId)) === 0) throw ApiError.badRequest(ORG_MESSAGES.lastCreator);
      }
      await removeFromSchool(orgId, memberId);
      return null;
    },

    /** The caller leaves the school (the last creator must appoint another first). */
    async leave(userId: number, orgId: number): Promise<CurrentUser> {
      const actor = await loadActor(db, userId, orgId);
      if (actor.role === 'creator' && (await otherCreators(orgId, userId)) === 0) {
        throw ApiError.badRequest(ORG_MESSAGES.lastCreator);
      }
      await removeFromSchool(orgId, userId);
      return currentUser(userId);
    },
  };
}
