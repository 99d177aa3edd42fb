/**
 * Proves who is logging in: password (with a single-use image captcha and wrong-password lockouts) or
 * SMS code. Answers a user id; issuing tokens is token.service.ts.
 *
 * Lockouts: a few wrong passwords for one account from one address lock that address out of that
 * account (LOGIN_MAX_FAILURES within LOGIN_LOCK_MINUTES); many from all addresses together
 * (LOGIN_ACCOUNT_MAX_FAILURES within LOGIN_ACCOUNT_LOCK_MINUTES) lock the account. A stranger can thus
 * lock only themselves out, not the teacher, unless they command many addresses. Unknown login names
 * are counted the same way, so the answers never tell whether an account exists.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { MOBILE_PATTERN, type PasswordGrant, type SmsGrant } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { loginFailures, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { addSeconds, type Clock } from '../../lib/clock';
import type { CaptchaService } from './captcha.service';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password-hasher';
import { SMS_MESSAGES, type SmsService } from './sms.service';

export const LOGIN_MESSAGES = {
  wrongCaptcha: '图形验证码错误或已过期',
  wrongPassword: '用户名或密码错误',
  wrongPasswordAttemptsLeft: (left: number) => `用户名或密码错误，还可尝试 ${left} 次`,
  locked: (minutes: number) => `密码错误次数过多，账号已锁定，请 ${minutes} 分钟后再试`,
} as const;

export type LockoutPolicy = {
  /** Per (account, address). */
  maxFailures: number;
  lockMinutes: number;
  /** Per account, all addresses together. */
  accountMaxFailures: number;
  accountLockMinutes: number;
};

/** The counter row of all addresses together. */
const ALL_ADDRESSES = '*';

export type LoginService = ReturnType<typeof createLoginService>;

/** The lockout counters' key of a user (also used by a password reset to clear them). */
export const loginKeyOfUser = (userId: number) => `user:${userId}`;

export function createLoginService(deps: {
  db: Db;
  now: Clock;
  captchas: CaptchaService;
  sms: SmsService;
  lockout: LockoutPolicy;
}) {
  const { db, now, captchas, sms, lockout } = deps;

  async function findByLoginName(name: string) {
    const rows = await db
      .select()
      .from(users)
      .where(or(eq(users.username, name), eq(users.mobile, name)));
    // A mobile-looking name is a mobile first (a username may be someone's former mobile).
    const byMobile = rows.find((row) => row.mobile === name);
    const byUsername = rows.find((row) => row.username === name);
    return MOBILE_PATTERN.test(name) ? (byMobile ?? byUsername) : (byUsername ?? byMobile);
  }

  const minutesLeft = (until: Date, at: Date) => Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 60_000));

  /** Counts one failure in the row's window (a stale window starts again at 1); answers the new count. */
  async function countFailure(loginKey: string, ip: string, windowMinutes: number, at: Date): Promise<number> {
    const windowStart = addSeconds(at, -windowMinutes * 60);
    const [row] = await db
      .insert(loginFailures)
      .values({ loginKey, ip, failures: 1, since: at })
      .onConflictDoUpdate({
        target: [loginFailures.loginKey, loginFailures.ip],
        set: {
          failures: sql`case when ${loginFailures.since} > ${windowStart} then ${loginFailures.failures} + 1 else 1 end`,
          since: sql`case when ${loginFailures.since} > ${windowStart} then ${loginFailures.since} else ${at} end`,
          lockedUntil: null,
        },
      })
      .returning({ failures: loginFailures.failures });
    return row!.failures;
  }

  async function lock(loginKey: string, ip: string, minutes: number, at: Date): Promise<never> {
    await db
      .update(loginFailures)
      .set({ failures: 0, since: at, lockedUntil: addSeconds(at, minutes * 60) })
      .where(and(eq(loginFailures.loginKey, loginKey), eq(loginFailures.ip, ip)));
    throw new ApiError(429, LOGIN_MESSAGES.locked(minutes));
  }

  return {
    async withPassword(grant: PasswordGrant, ip: string): Promise<number> {
      // The captcha is spent before anything else, so each password guess costs a fresh captcha.
      if (!(await captchas.consume(grant.captchaKey, grant.captcha))) {
        throw ApiError.badRequest(LOGIN_MESSAGES.wrongCaptcha);
      }
      const at = now();
      const user = await findByLoginName(grant.username);
      const loginKey = user ? loginKeyOfUser(user.id) : `name:${grant.username.toLowerCase()}`;
      const counters = await db
        .select()
        .from(loginFailures)
        .where(and(eq(loginFailures.loginKey, loginKey), or(eq(loginFailures.ip, ip), eq(loginFailures.ip, ALL_ADDRESSES))));
      const lockedUntil = counters
        .map((row) => row.lockedUntil)
        .filter((until): until is Date => until !== null && until.getTime() > at.getTime())
        .sort((a, b) => b.getTime() - a.getTime())[0];
      if (lockedUntil) throw new ApiError(429, LOGIN_MESSAGES.locked(minutesLeft(lockedUntil, at)));

      // Unknown users cost the same scrypt time as known ones and get the same message.
      const matches = await verifyPassword(grant.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !matches) {
        const fromHere = await countFailure(loginKey, ip, lockout.lockMinutes, at);
        const fromAll = await countFailure(loginKey, ALL_ADDRESSES, lockout.accountLockMinutes, at);
        if (fromAll >= lockout.accountMaxFailures) await lock(loginKey, ALL_ADDRESSES, lockout.accountLockMinutes, at);
        if (fromHere >= lockout.maxFailures) await lock(loginKey, ip, lockout.lockMinutes, at);
        const left = Math.min(lockout.maxFailures - fromHere, lockout.accountMaxFailures - fromAll);
        throw ApiError.badRequest(LOGIN_MESSAGES.wrongPasswordAttemptsLeft(left));
      }
      await db.delete(loginFailures).where(and(eq(loginFailures.loginKey, loginKey), eq(loginFailures.ip, ip)));
      return user.id;
    },

    async withSms(grant: SmsGrant): Promise<number> {
      // The code is checked first: only the phone's holder learns whether the mobile is registered.
      await sms.consumeCode(grant.mobile, 'login', grant.smsCode);
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.mobile, grant.mobile));
      if (!user) throw ApiError.badRequest(SMS_MESSAGES.notRegistered);
      return user.id;
    },
  };
}
