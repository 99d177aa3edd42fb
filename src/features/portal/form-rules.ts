/**
 * The form rules of spec §5, in Semi Form's terms. Messages come from the contract, word for word.
 */
import { FORM_MESSAGES, MOBILE_PATTERN, passwordSchema } from '../../shared/contract/auth';

export const usernameRules = [{ required: true, message: FORM_MESSAGES.username }];
export const passwordRules = [{ required: true, message: FORM_MESSAGES.password }];
export const captchaRules = [{ required: true, message: FORM_MESSAGES.captcha }];
export const nicknameRules = [{ required: true, message: FORM_MESSAGES.nickname }];

/** Phone and mobile: a custom validator (an 11-digit mainland mobile number). */
export function validateMobile(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) return FORM_MESSAGES.mobile;
  return MOBILE_PATTERN.test(text) ? '' : FORM_MESSAGES.mobile;
}

/** The SMS code carries its message but is not flagged required (no asterisk); empty still stops submit. */
export function validateSmsCode(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  return text ? '' : FORM_MESSAGES.smsCode;
}

/** A new password: required, then strong enough (the server applies the same schema). */
export function validateNewPassword(value: unknown): string {
  const text = typeof value === 'string' ? value : '';
  if (!text) return FORM_MESSAGES.password;
  const result = passwordSchema.safeParse(text);
  return result.success ? '' : (result.error.issues[0]?.message ?? FORM_MESSAGES.passwordWeak);
}

export function validateSecondPassword(value: unknown, values: Record<string, unknown>): string {
  const text = typeof value === 'string' ? value : '';
  if (!text) return FORM_MESSAGES.password;
  return text === values.password ? '' : FORM_MESSAGES.passwordMismatch;
}
