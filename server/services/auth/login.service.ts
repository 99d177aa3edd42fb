/**
 * Proves who is logging in: password (with a single-use image captcha and a per-account lockout after
 * repeated wrong passwords) or SMS code. Answers a user id; issuing tokens is token.service.ts.
 */
import { eq, or } from 'drizzle-orm';
import { MOBILE_PATTERN, type PasswordGrant, type SmsGrant } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { addSeconds, type Clock } from '../../lib/clock';
import type { CaptchaService } from './captcha.service';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password-hasher';
import { SMS_MESSAGES, type SmsService } from './sms.service';

export const LOGIN_MESSAGES = {
  wrongCaptcha: '图形验证码错误或已过期',
  wrongPassword: '用户名或密码错误',
  locked: (minutes: number) => `密码错误次数过多，账号已锁定，请 ${minutes} 分钟后再试`,
} as const;

export type LockoutPolicy = { maxFailures: number; lockMinutes: number };

export type LoginService = ReturnType<typeof createLoginService>;

export function createLoginService(deps: {
  db: Db;
  now: Clock;
  captchas: CaptchaService;
  sms: SmsService;
  lockout: LockoutPolicy;
}) {
  const { db, now, captchas, sms, lockout } = deps;
  const windowMs = lockout.lockMinutes * 60_000;

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

  return {
    async withPassword(grant: PasswordGrant): Promise<number> {
      // The captcha is spent before anything else, so each password guess costs a fresh captcha.
      if (!(await captchas.consume(grant.captchaKey, grant.captcha))) {
        throw ApiError.badRequest(LOGIN_MESSAGES.wrongCaptcha);
      }
      const at = now();
      const user = await findByLoginName(grant.username);
      if (user?.lockedUntil && user.lockedUntil.getTime() > at.getTime()) {
        throw new ApiError(429, LOGIN_MESSAGES.locked(minutesLeft(user.lockedUntil, at)));
      }
      // Unknown users cost the same scrypt time as known ones and get the same message.
      const matches = await verifyPassword(grant.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !matches) {
        if (user) await recordFailure(user.id, user.failedLoginCount, user.failedLoginSince, at);
        throw ApiError.badRequest(LOGIN_MESSAGES.wrongPassword);
      }
      if (user.failedLoginCount > 0 || user.lockedUntil) {
        await db
          .update(users)
          .set({ failedLoginCount: 0, failedLoginSince: null, lockedUntil: null })
          .where(eq(users.id, user.id));
      }
      return user.id;
    },

    async withSms(grant: SmsGrant): Promise<number> {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.mobile, grant.mobile));
      if (!user) throw ApiError.badRequest(SMS_MESSAGES.notRegistered);
      await sms.consumeCode(grant.mobile, 'login', grant.smsCode);
      return user.id;
    },
  };

  /** Counts a wrong password inside the window; reaching the limit locks the account and says so. */
  async function recordFailure(userId: number, count: number, since: Date | null, at: Date): Promise<void> {
    const windowOpen = since !== null && at.getTime() - since.getTime() < windowMs;
    const failures = windowOpen ? count + 1 : 1;
    if (failures >= lockout.maxFailures) {
      const lockedUntil = addSeconds(at, lockout.lockMinutes * 60);
      await db.update(users).set({ failedLoginCount: 0, failedLoginSince: null, lockedUntil }).where(eq(users.id, userId));
      throw new ApiError(429, LOGIN_MESSAGES.locked(lockout.lockMinutes));
    }
    await db
      .update(users)
      .set({ failedLoginCount: failures, failedLoginSince: windowOpen ? since : at })
      .where(eq(users.id, userId));
  }
}
