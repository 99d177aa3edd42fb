/**
 * User accounts: the CurrentUser projection (with the default school and school year), registration,
 * profile, mobile and password changes. Proving identity for a login is login.service.ts; sessions are
 * token.service.ts.
 */
import { and, eq, ne } from 'drizzle-orm';
import {
  type ChangePasswordRequest,
  type CurrentUser,
  type RegisterRequest,
  type ResetPasswordRequest,
  type Role,
  UNAUTHORIZED_MESSAGE,
  type UserGradeInfo,
} from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { classes, loginFailures, memberships, orgs, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { isUniqueViolation } from '../../lib/secrets';
import { hashPassword, verifyPassword } from '../auth/password-hasher';
import { loginKeyOfUser } from '../auth/login.service';
import { SMS_MESSAGES, type SmsService } from '../auth/sms.service';
import type { TokenService } from '../auth/token.service';

export const USER_MESSAGES = {
  wrongOldPassword: '原密码错误',
} as const;

/** 13800000001 -> 138****0001 */
export function maskMobile(mobile: string | null): string | null {
  if (!mobile) return null;
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;
}

export type UserService = ReturnType<typeof createUserService>;

export function createUserService({ db, sms, tokens }: { db: Db; sms: SmsService; tokens: TokenService }) {
  async function mobileInUse(mobile: string, exceptUserId?: number): Promise<boolean> {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.mobile, mobile), exceptUserId ? ne(users.id, exceptUserId) : undefined));
    return Boolean(row);
  }

  /** The mobile is the username when it is free; after mobile changes it may not be, so add a suffix. */
  async function freeUsername(mobile: string): Promise<string> {
    for (let suffix = 0; ; suffix += 1) {
      const candidate = suffix === 0 ? mobile : `${mobile}_${suffix}`;
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.username, candidate));
      if (!row) return candidate;
    }
  }

  async function currentUser(userId: number): Promise<CurrentUser> {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw ApiError.unauthorized(UNAUTHORIZED_MESSAGE);
    const rows = await db
      .select({
        orgId: memberships.orgId,
        orgName: orgs.name,
        role: memberships.role,
        gradeDirector: memberships.gradeDirector,
        classDefaultId: memberships.defaultClassId,
        classDefaultName: classes.name,
      })
      .from(memberships)
      .innerJoin(orgs, eq(orgs.id, memberships.orgId))
      .leftJoin(classes, eq(classes.id, memberships.defaultClassId))
      .where(eq(memberships.userId, userId))
      .orderBy(memberships.id);
    const home = rows.find((row) => row.orgId === user.defaultOrgId);
    const userGradeInfo: UserGradeInfo = {
      orgDefaultId: home?.orgId ?? null,
      orgName: home?.orgName ?? null,
      gradeDirector: home?.gradeDirector ?? false,
      isCreator: home?.role === 'creator',
      classDefaultId: home?.classDefaultId ?? null,
      classDefaultName: home?.classDefaultName ?? null,
    };
    return {
      id: user.id,
      username: user.username,
      nickname: user.nickname,
      mobile: maskMobile(user.mobile),
      avatar: user.avatar,
      wechatBound: user.wechatBound,
      userGradeInfo,
      orgs: rows.map((row) => ({
        id: row.orgId,
        name: row.orgName,
        role: row.role as Role,
        gradeDirector: row.gradeDirector,
      })),
    };
  }

  return {
    currentUser,

    /** Creates the account (username = mobile) once the SMS code proves the mobile. */
    async register(input: RegisterRequest): Promise<number> {
      // The code first: only the phone's holder learns that the mobile is registered.
      await sms.consumeCode(input.mobile, 'register', input.smsCode);
      if (await mobileInUse(input.mobile)) throw ApiError.badRequest(SMS_MESSAGES.registered);
      const passwordHash = await hashPassword(input.password);
      try {
        const [created] = await db
          .insert(users)
          .values({ username: await freeUsername(input.mobile), nickname: input.nickname, mobile: input.mobile, passwordHash })
          .returning({ id: users.id });
        return created!.id;
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.badRequest(SMS_MESSAGES.registered);
        throw error;
      }
    },

    /** Forgotten password: proven by SMS; ends every session and lifts a lockout. */
    async resetPassword(input: ResetPasswordRequest): Promise<void> {
      await sms.consumeCode(input.mobile, 'reset', input.smsCode);
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.mobile, input.mobile));
      if (!user) throw ApiError.badRequest(SMS_MESSAGES.notRegistered);
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password), failedLoginCount: 0, failedLoginSince: null, lockedUntil: null })
        .where(eq(users.id, user.id));
      await db.delete(loginFailures).where(eq(loginFailures.loginKey, loginKeyOfUser(user.id)));
      await tokens.revokeUserFamilies(user.id);
    },

    /** Logged-in change: the old password must match; every other session ends. */
    async changePassword(userId: number, familyId: string, input: ChangePasswordRequest): Promise<void> {
      const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
      if (!user) throw ApiError.unauthorized(UNAUTHORIZED_MESSAGE);
      if (!(await verifyPassword(input.oldPassword, user.passwordHash))) {
        throw ApiError.badRequest(USER_MESSAGES.wrongOldPassword);
      }
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(users.id, userId));
      await tokens.revokeUserFamilies(userId, familyId);
    },

    async updateProfile(userId: number, input: { nickname: string }): Promise<CurrentUser> {
      await db.update(users).set({ nickname: input.nickname }).where(eq(users.id, userId));
      return currentUser(userId);
    },

    async changeMobile(userId: number, input: { mobile: string; smsCode: string }): Promise<CurrentUser> {
      await sms.consumeCode(input.mobile, 'bind', input.smsCode);
      if (await mobileInUse(input.mobile, userId)) throw ApiError.badRequest(SMS_MESSAGES.registered);
      try {
        await db.update(users).set({ mobile: input.mobile }).where(eq(users.id, userId));
      } catch (error) {
        if (isUniqueViolation(error)) throw ApiError.badRequest(SMS_MESSAGES.registered);
        throw error;
      }
      return currentUser(userId);
    },
  };
}
