/**
 * The developer outbox: the latest SMS codes and captcha texts, kept in memory so a developer (or the
 * Playwright suite) can log in without a phone or eyes. On only with DEV_OUTBOX=true outside production
 * (and then answering loopback callers only, see routes/dev); otherwise it records nothing.
 */
import type { DevOutbox as DevOutboxPayload, SmsPurpose } from '../../../src/shared/contract/auth';

const KEEP = 50;

export type DevOutbox = ReturnType<typeof createDevOutbox>;

export function createDevOutbox({ enabled }: { enabled: boolean }) {
  const sms: DevOutboxPayload['sms'] = [];
  const captcha: DevOutboxPayload['captcha'] = [];
  const remember = <T>(list: T[], entry: T) => {
    if (!enabled) return;
    list.unshift(entry);
    list.length = Math.min(list.length, KEEP);
  };
  return {
    enabled,
    recordSms: (mobile: string, code: string, purpose: SmsPurpose) => remember(sms, { mobile, code, purpose }),
    recordCaptcha: (key: string, text: string) => remember(captcha, { key, text }),
    /** Latest first. */
    snapshot: (): DevOutboxPayload => ({ sms: [...sms], captcha: [...captcha] }),
  };
}
