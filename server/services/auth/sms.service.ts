/**
 * SMS verification codes: sends 6-digit codes (5 minutes, single use, a few attempts) with a cooldown per
 * mobile, and checks them. Sending answers the same whether or not the mobile is registered (a stranger
 * must not learn who uses the product); whether a purpose needs a registered or an unused mobile is
 * decided after the code is proven, by the caller. Delivery is the SmsSender's business (sms-sender.ts);
 * without one (production without a provider) the SMS features say so.
 */
import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { SmsPurpose } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { smsCodes } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { addSeconds, type Clock } from '../../lib/clock';
import { sameHash, sha256Hex } from '../../lib/secrets';
import type { DevOutbox } from './dev-outbox';
import { SmsDeliveryError, type SmsSender } from './sms-sender';

export const SMS_COOLDOWN_SECONDS = 60;
export const SMS_CODE_TTL_SECONDS = 300;
/** Wrong guesses after which a code is dead: 5 guesses out of a million. */
const SMS_MAX_ATTEMPTS = 5;

export const SMS_MESSAGES = {
  registered: '该手机号已注册',
  notRegistered: '该手机号尚未注册',
  wrongCode: '短信验证码错误或已过期',
  tooFrequent: (seconds: number) => `短信发送过于频繁，请 ${seconds} 秒后再试`,
  unavailable: '本系统未配置短信服务，暂不能发送短信验证码，请使用账号密码登录或联系学校管理员',
  deliveryFailed: '短信发送失败，请稍后再试',
} as const;

export type SmsService = ReturnType<typeof createSmsService>;

export function createSmsService({
  db,
  now,
  sender,
  outbox,
  log,
}: {
  db: Db;
  now: Clock;
  /** null: no way to deliver SMS (production without a provider). */
  sender: SmsSender | null;
  outbox: DevOutbox;
  log?: (error: Error) => void;
}) {
  return {
    /** Whether codes can be delivered at all. */
    available: sender !== null,

    async sendCode(mobile: string, purpose: SmsPurpose): Promise<{ cooldown: number }> {
      if (!sender) throw ApiError.badRequest(SMS_MESSAGES.unavailable);
      const sentAt = now();

      const [latest] = await db
        .select({ createdAt: smsCodes.createdAt })
        .from(smsCodes)
        .where(eq(smsCodes.mobile, mobile))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      const elapsed = latest ? (sentAt.getTime() - latest.createdAt.getTime()) / 1000 : Infinity;
      if (elapsed < SMS_COOLDOWN_SECONDS) {
        throw new ApiError(429, SMS_MESSAGES.tooFrequent(Math.ceil(SMS_COOLDOWN_SECONDS - elapsed)));
      }

      await db.delete(smsCodes).where(lt(smsCodes.expiresAt, addSeconds(sentAt, -SMS_CODE_TTL_SECONDS)));
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.insert(smsCodes).values({
        mobile,
        purpose,
        codeHash: sha256Hex(code),
        expiresAt: addSeconds(sentAt, SMS_CODE_TTL_SECONDS),
        createdAt: sentAt,
      });
      outbox.recordSms(mobile, code, purpose);
      try {
        await sender.send({ mobile, code, purpose });
      } catch (error) {
        if (!(error instanceof SmsDeliveryError)) throw error;
        log?.(error);
        throw ApiError.badRequest(SMS_MESSAGES.deliveryFailed);
      }
      return { cooldown: SMS_COOLDOWN_SECONDS };
    },

    /** Consumes the latest live code for this mobile and purpose, or answers 400. */
    async consumeCode(mobile: string, purpose: SmsPurpose, code: string): Promise<void> {
      const at = now();
      const [row] = await db
        .select()
        .from(smsCodes)
        .where(
          and(
            eq(smsCodes.mobile, mobile),
            eq(smsCodes.purpose, purpose),
            isNull(smsCodes.consumedAt),
            gt(smsCodes.expiresAt, at),
          ),
        )
        .orderBy(desc(smsCodes.createdAt))
        .limit(1);
      if (!row || row.attempts >= SMS_MAX_ATTEMPTS) throw ApiError.badRequest(SMS_MESSAGES.wrongCode);
      if (!sameHash(row.codeHash, sha256Hex(code))) {
        await db
          .update(smsCodes)
          .set({ attempts: sql`${smsCodes.attempts} + 1` })
          .where(eq(smsCodes.id, row.id));
        throw ApiError.badRequest(SMS_MESSAGES.wrongCode);
      }
      const consumed = await db
        .update(smsCodes)
        .set({ consumedAt: at })
        .where(and(eq(smsCodes.id, row.id), isNull(smsCodes.consumedAt)))
        .returning({ id: smsCodes.id });
      if (consumed.length === 0) throw ApiError.badRequest(SMS_MESSAGES.wrongCode);
    },
  };
}
