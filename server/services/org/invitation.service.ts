/**
 * Invitations to join a school: an admin makes one (a random link token and a 6-digit code, the role,
 * school year, classes and subjects it presets, an expiry and a number of uses), lists and revokes
 * them; anyone may look one up (what school, whether it still works); a logged-in user accepts it and
 * joins. The last use is taken by one conditional UPDATE, so two people accepting at once never both
 * get it.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { CurrentUser } from '../../../src/shared/contract/auth';
import {
  type CreateInvitation,
  type Invitation,
  type InvitationLookup,
  type InvitationPreview,
  type InvitationStatus,
  ORG_MESSAGES,
} from '../../../src/shared/contract/org';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { invitations, memberships, orgs, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import type { Clock } from '../../lib/clock';
import { isUniqueViolation } from '../../lib/secrets';
import { requireNodes, requireSubjects, writeDuties } from './member.service';
import { requirePermission } from './permissions';

type InvitationRow = typeof invitations.$inferSelect;
type CreateInvitationData = CreateInvitation;

const DAY_MS = 24 * 60 * 60 * 1000;

export function invitationStatus(
  row: Pick<InvitationRow, 'revokedAt' | 'expiresAt' | 'usedCount' | 'maxUses'>,
  now: Date,
): InvitationStatus {
  if (row.revokedAt) return 'revoked';
  if (row.usedCount >= row.maxUses) return 'usedUp';
  if (row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

const STATUS_MESSAGES: Record<Exclude<InvitationStatus, 'active'>, string> = {
  expired: ORG_MESSAGES.invitationExpired,
  usedUp: ORG_MESSAGES.invitationUsedUp,
  revoked: ORG_MESSAGES.invitationRevoked,
};

export type InvitationService = ReturnType<typeof createInvitationService>;

export function createInvitationService({
  db,
  now,
  currentUser,
}: {
  db: Db;
  now: Clock;
  currentUser: (userId: number) => Promise<CurrentUser>;
}) {
  const view = (row: InvitationRow): Invitation => ({
    id: row.id,
    token: row.token,
    code: row.code,
    role: row.role as Invitation['role'],
    schoolYearId: row.schoolYearId,
    classIds: row.classIds,
    subjectIds: row.subjectIds,
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    expiresAt: row.expiresAt.toISOString(),
    status: invitationStatus(row, now()),
    createdAt: row.createdAt.toISOString(),
  });

  /** A usable invitation by its code: the newest still active one. */
  async function byLookup(lookup: InvitationLookup): Promise<InvitationRow> {
    let row: InvitationRow | undefined;
    if (lookup.token) {
      [row] = await db.select().from(invitations).where(eq(invitations.token, lookup.token));
    } else {
      const rows = await db
        .select()
        .from(invitations)
        .where(eq(invitations.code, lookup.code!))
        .orderBy(desc(invitations.id))
        .limit(50);
      row = rows.find((r) => invitationStatus(r, now()) === 'active') ?? rows[0];
    }
    if (!row) throw ApiError.badRequest(ORG_MESSAGES.invitationNotFound);
    return row;
  }

  /** A 6-digit code no active invitation uses. */
  async function freeCode(): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const [taken] = await db
        .select({ id: invitations.id })
        .from(invitations)
        .where(
          and(
            eq(invitations.code, code),
            isNull(invitations.revokedAt),
            gt(invitations.expiresAt, now()),
            lt(invitations.usedCount, invitations.maxUses),
          ),
        );
      if (!taken) return code;
    }
    throw ApiError.badRequest('邀请码生成失败，请重试');
  }

  return {
    async create(userId: number, orgId: number, input: CreateInvitationData): Promise<Invitation> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      if (input.schoolYearId !== null) await requireNodes(db, orgId, [input.schoolYearId], CLASS_TYPE.schoolYear, '学年不存在');
      await requireNodes(db, orgId, input.classIds, CLASS_TYPE.klass, '班级不存在');
      await requireSubjects(db, orgId, input.subjectIds);
      const [row] = await db
        .insert(invitations)
        .values({
          orgId,
          token: randomBytes(24).toString('base64url'),
          code: await freeCode(),
          role: input.role,
          schoolYearId: input.schoolYearId,
          classIds: [...new Set(input.classIds)],
          subjectIds: [...new Set(input.subjectIds)],
          maxUses: input.maxUses,
          expiresAt: new Date(now().getTime() + input.expiresInDays * DAY_MS),
          createdBy: userId,
          createdAt: now(),
        })
        .returning();
      return view(row!);
    },

    async list(userId: number, orgId: number): Promise<Invitation[]> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const rows = await db
        .select()
        .from(invitations)
        .where(eq(invitations.orgId, orgId))
        .orderBy(desc(invitations.createdAt), desc(invitations.id))
        .limit(200);
      return rows.map(view);
    },

    async revoke(userId: number, orgId: number, id: number): Promise<Invitation> {
      await requirePermission(db, userId, { kind: 'school.manage' }, orgId);
      const [row] = await db
        .update(invitations)
        .set({ revokedAt: sql`coalesce(${invitations.revokedAt}, ${now()})` })
        .where(and(eq(invitations.id, id), eq(invitations.orgId, orgId)))
        .returning();
      if (!row) throw ApiError.notFound();
      return view(row);
    },

    /** What an invitation offers, for anyone holding its link or code. */
    async preview(lookup: InvitationLookup): Promise<InvitationPreview> {
      const row = await byLookup(lookup);
      const [org] = await db.select({ name: orgs.name }).from(orgs).where(eq(orgs.id, row.orgId));
      const [inviter] = row.createdBy
        ? await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, row.createdBy))
        : [];
      return {
        schoolName: org?.name ?? '',
        inviterName: inviter?.nickname ?? null,
        role: row.role as InvitationPreview['role'],
        expiresAt: row.expiresAt.toISOString(),
        status: invitationStatus(row, now()),
      };
    },

    /** Joins the school: takes one use, adds the membership with its preset duties, makes it the default. */
    async accept(userId: number, lookup: InvitationLookup): Promise<CurrentUser> {
      const row = await byLookup(lookup);
      const status = invitationStatus(row, now());
      if (status !== 'active') throw ApiError.badRequest(STATUS_MESSAGES[status]);
      const [existing] = await db
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.orgId, row.orgId), eq(memberships.userId, userId)));
      if (existing) throw ApiError.badRequest(ORG_MESSAGES.alreadyMember);
      try {
        await db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const [taken] = await tx
            .update(invitations)
            .set({ usedCount: sql`${invitations.usedCount} + 1` })
            .where(
              and(
                eq(invitations.id, row.id),
                isNull(invitations.revokedAt),
                gt(invitations.expiresAt, now()),
                lt(invitations.usedCount, invitations.maxUses),
              ),
            )
            .returning({ id: invitations.id });
          if (!taken) throw ApiError.badRequest(ORG_MESSAGES.invitationUsedUp);
          await tx
            .insert(memberships)
            .values({ orgId: row.orgId, userId, role: row.role, defaultClassId: row.schoolYearId ?? null });
          const assignments = row.classIds.flatMap((classId) => row.subjectIds.map((subjectId) => ({ classId, subjectId })));
          await writeDuties(tx, row.orgId, userId, { gradeDirectorOf: [], classTeacherOf: [], assignments });
          await tx.update(users).set({ defaultOrgId: row.orgId }).where(eq(users.id, userId));
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.badRequest(ORG_MESSAGES.alreadyMember);
        throw error;
      }
      return currentUser(userId);
    },
  };
}
