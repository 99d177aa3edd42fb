/**
 * The session as persisted in this browser, and the chosen school year. Owns the cookie and
 * local-storage layout below; does not decide when a session starts, is renewed or ends (that is the
 * session machine) and never talks to the server.
 *
 * - cookie `access_token`: the access token, kept as long as the refresh token lives, so the
 *   navigation guard sees a session the machine can still renew;
 * - cookie `user`: the username (the guard needs both cookies, spec §2);
 * - local storage `session`: refresh token, access-token expiry and the user object;
 * - local storage `gradeInfo`: the chosen school year { id, name }.
 */
import { classItemSchema, type ClassItem } from '../contract/system';
import { storedSessionSchema, type StoredSession } from '../contract/session';
import { getCookie, removeCookie, setCookie } from './cookie';
import { clearLocalStorage, getLocalItem, setLocalItem } from './local-storage';
import { ACCESS_TOKEN_COOKIE, USER_COOKIE } from './session-cookies';

export { storedSessionSchema, type StoredSession };
export { ACCESS_TOKEN_COOKIE, hasSessionCookies, USER_COOKIE } from './session-cookies';
export const SESSION_STORAGE_KEY = 'session';
export const GRADE_INFO_STORAGE_KEY = 'gradeInfo';
/** The server's default refresh-token lifetime (REFRESH_TOKEN_TTL_SECONDS, 30 days): the cookies live as long. */
export const SESSION_COOKIE_DAYS = 30;

const persistedPartSchema = storedSessionSchema.omit({ accessToken: true });

/** The stored session, or null when any part is missing or does not validate. */
export function loadSession(): StoredSession | null {
  const accessToken = getCookie(ACCESS_TOKEN_COOKIE);
  if (!accessToken || getCookie(USER_COOKIE) === undefined) return null;
  const parsed = storedSessionSchema.safeParse({ ...asObject(getLocalItem(SESSION_STORAGE_KEY)), accessToken });
  return parsed.success ? parsed.data : null;
}

export function saveSession(session: StoredSession): void {
  const { accessToken, ...rest } = storedSessionSchema.parse(session);
  setLocalItem(SESSION_STORAGE_KEY, persistedPartSchema.parse(rest));
  setCookie(ACCESS_TOKEN_COOKIE, accessToken, SESSION_COOKIE_DAYS);
  setCookie(USER_COOKIE, rest.user.username, SESSION_COOKIE_DAYS);
}

/** Removes both cookies and clears ALL local storage (logout clears all local storage, spec §4). */
export function clearSession(): void {
  removeCookie(ACCESS_TOKEN_COOKIE);
  removeCookie(USER_COOKIE);
  clearLocalStorage();
}

export function saveGradeInfo(info: ClassItem): void {
  setLocalItem(GRADE_INFO_STORAGE_KEY, classItemSchema.parse(info));
}

/** The school year chosen on this browser, or null when none (or a corrupt one) is stored. */
export function loadGradeInfo(): ClassItem | null {
  const parsed = classItemSchema.safeParse(getLocalItem(GRADE_INFO_STORAGE_KEY));
  return parsed.success ? { id: parsed.data.id, name: parsed.data.name } : null;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
