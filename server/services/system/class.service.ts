/**
 * The school structure as a member sees it: the school years (type 1) and classes (type 2) of a school
 * the user belongs to, and the user's default school year. Membership is checked here, for every call.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { UserGradeInfo } from '../../../src/shared/contract/auth';
import { CLASS_TYPE, type ClassItem } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, memberships, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import type { UserService } from '../user/user.service';

export type ClassService = ReturnType<typeof createClassService>;

export function createClassService({ db, users: userService }: { db: Db; users: UserService }) {
  async function requireMembership(userId: number, orgId: number) {
    const [membership] = await db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.orgId, orgId)));
    if (!membership) throw ApiError.forbidden();
    return membership;
  }

  async function findNode(orgId: number, id: number, type: number) {
    const [node] = await db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.id, id), eq(classes.orgId, orgId), eq(classes.type, type)));
    return node;
  }

  return {
    /** School years of the org; with type 2, its classes (only those of school year `pid` if given). */
    async list(userId: number, query: { orgId: number; type: 1 | 2; pid?: number | undefined }): Promise<ClassItem[]> {
      await requireMembership(userId, query.orgId);
      const underPid = query.type === CLASS_TYPE.klass && query.pid !== undefined;
      if (underPid && !(await findNode(query.orgId, query.pid!, CLASS_TYPE.schoolYear))) throw ApiError.notFound();
      return db
        .select({ id: classes.id, name: classes.name })
        .from(classes)
        .where(
          and(eq(classes.orgId, query.orgId), eq(classes.type, query.type), underPid ? eq(classes.pid, query.pid!) : undefined),
        )
        .orderBy(asc(classes.sort), asc(classes.id));
    },

    /** Makes `classId` (a school year of `orgId`) the default, and `orgId` the user's default school. */
    async setDefault(userId: number, input: { orgId: number; classId: number }): Promise<UserGradeInfo> {
      const membership = await requireMembership(userId, input.orgId);
      if (!(await findNode(input.orgId, input.classId, CLASS_TYPE.schoolYear))) throw ApiError.notFound();
      await db.transaction(async (tx) => {
        await tx.update(memberships).set({ defaultClassId: input.classId }).where(eq(memberships.id, membership.id));
        await tx.update(users).set({ defaultOrgId: input.orgId }).where(eq(users.id, userId));
      });
      return (await userService.currentUser(userId)).userGradeInfo;
    },
  };
}
