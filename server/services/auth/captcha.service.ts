/**
 * Image captchas: creates one (SVG, 5 minutes, single use) and consumes it on the next check, right or
 * wrong, so a captcha can never be tried twice. Answers compare case-insensitively.
 */
import { randomUUID } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Captcha } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { captchas } from '../../db/schema';
import { addSeconds, type Clock } from '../../lib/clock';
import { sameHash, sha256Hex } from '../../lib/secrets';
import { randomCaptchaText, renderCaptchaSvg } from './captcha-svg';
import type { DevOutbox } from './dev-outbox';

export const CAPTCHA_TTL_SECONDS = 300;

const answerHash = (text: string) => sha256Hex(text.trim().toUpperCase());

export type CaptchaService = ReturnType<typeof createCaptchaService>;

export function createCaptchaService({
  db,
  now,
  outbox,
  revealCaptcha,
}: {
  db: Db;
  now: Clock;
  outbox: DevOutbox;
  /** Told each new captcha's answer (development: the server log). */
  revealCaptcha?: (text: string) => void;
}) {
  return {
    async create(): Promise<Captcha> {
      const createdAt = now();
      // Expired captchas are worthless; dropping them here keeps the table small without a scheduler.
      await db.delete(captchas).where(lt(captchas.expiresAt, createdAt));
      const key = randomUUID();
      const text = randomCaptchaText();
      await db.insert(captchas).values({
        key,
        answerHash: answerHash(text),
        expiresAt: addSeconds(createdAt, CAPTCHA_TTL_SECONDS),
        createdAt,
      });
      outbox.recordCaptcha(key, text);
      revealCaptcha?.(text);
      return { captchaKey: key, svg: renderCaptchaSvg(text), expiresIn: CAPTCHA_TTL_SECONDS };
    },

    /** True when the answer matches a live captcha. The captcha is gone afterwards either way. */
    async consume(key: string, answer: string): Promise<boolean> {
      const [row] = await db.delete(captchas).where(eq(captchas.key, key)).returning();
      if (!row || row.expiresAt.getTime() <= now().getTime()) return false;
      return sameHash(row.answerHash, answerHash(answer));
    },
  };
}
