/**
 * Join requests by 学校码: a teacher enters a school's code and asks to join; the school's creator or an
 * admin approves (the teacher becomes a member with the teacher role, and the school becomes their
 * default when they had none) or declines. One pending request per teacher and school.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { type JoinRequest, ORG_MESSAGES } from '../../../src/shared/contract/org';
import type { Db } from '../../db/client';
import { joinRequests, memberships, orgs, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { maskMobile } from '../user/user.service';
import { requirePermission } from './permissions';

export type JoinRequestService = ReturnType<typeof createJoinRequestService>;

export function createJoinRequestService({ db }: { db: Db }) {
  const columns = {
    id: joinRequests.id,
    orgId: joinRequests.orgId,
    schoolName: orgs.name,
    userId: joinRequests.userId,
    nickname: users.nickname,
    mobile: users.mobile,
    status: joinRequests.status,
    createdAt: joinRequests.createdAt,
  };
  const select = () =>
    db
      .select(columns)
      .from(joinRequests)
      .innerJoin(orgs, eq(orgs.id, joinRequests.orgId))
      .innerJoin(users, eq(users.id, joinRequests.userId));
  const toRequest = (row: Awaited<ReturnType<typeof select>>[number]): JoinRequest => ({
    ...row,
    mobile: maskMobile(row.mobile),
    status: row.status as JoinRequest['status'],
    createdAt: row.createdAt.toISOString(),
  });
  const one = async (id: number) => toRequest((await select().where(eq(joinRequests.id, id)))[0]!);

  return {
    /** The caller asks to join the school with this code (again: the pending request they have). */
    async request(userId: number, code: string): Promise<JoinRequest> {
      const [org] = await db.select({ id: orgs.id }).from(orgs).where(eq(orgs.joinCode, code));
      if (!org) throw ApiError.badRequest(ORG_MESSAGES.joinCodeUnknown);
      const [member] = await db
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.orgId, org.id), eq(memberships.userId, userId)));
      if (member) throw ApiError.badRequest(ORG_MESSAGES.alreadyMember);
      const [inserted] = await db
        .insert(joinRequests)
        .values({ orgId: org.id, userId })
        .onConflictDoNothing()
        .returning({ id: joinRequests.id });
      if (inserted) return one(inserted.id);
      const [pending] = await db
        .select({ id: joinRequests.id })
        .from(joinRequests)
        .where(and(eq(joinRequests.orgId, org.id), eq(joinRequests.userId, userId), eq(joinRequests.status, 'pending')));
      return one(pending!.id);
    },

    async mine(userId: number): Promise<JoinRequest[]> {
      const rows = await select()
        .where(eq(joinRequests.userId, userId))
        .orderBy(desc(joinRequests.createdAt), desc(joinRequests.id))
        .limit(20);
      return rows.map(toRequest);
    },

    /** The school's pending requests (creator and admins). */
    async pending(userId: number, orgId: number): Promise<JoinRequest[]> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const rows = await select()
        .where(and(eq(joinRequests.orgId, orgId), eq(joinRequests.status, 'pending')))
        .orderBy(joinRequests.id);
      return rows.map(toRequest);
    },

    async decide(userId: number, orgId: number, id: number, approve: boolean): Promise<JoinRequest> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const [row] = await db
        .select()
        .from(joinRequests)
        .where(and(eq(joinRequests.id, id), eq(joinRequests.orgId, orgId)));
      if (!row) throw ApiError.notFound();
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [taken] = await tx
          .update(joinRequests)
          .set({ status: approve ? 'approved' : 'declined', decidedBy: userId, decidedAt: sql`now()` })
          .where(and(eq(joinRequests.id, id), eq(joinRequests.status, 'pending')))
          .returning({ id: joinRequests.id });
        if (!taken) throw new ApiError(409, ORG_MESSAGES.joinRequestDecided);
        if (!approve) return;
        await tx.insert(memberships).values({ orgId, userId: row.userId, role: 'teacher' }).onConflictDoNothing();
        await tx
          .update(users)
          .set({ defaultOrgId: orgId })
          .where(and(eq(users.id, row.userId), sql`${users.defaultOrgId} is null`));
      });
      return one(id);
    },
  };
}
