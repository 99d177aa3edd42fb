/**
 * The two session cookies' names and the navigation guard's test on them, apart from the rest of the
 * session's storage (session-storage.ts, with its schemas) so the portal's entry can run the guard on the
 * landing page without loading the session runtime.
 */
import { getCookie } from './cookie';

export const ACCESS_TOKEN_COOKIE = 'access_token';
export const USER_COOKIE = 'user';

/** The navigation guard's test (spec §2): both the access-token cookie and the user cookie exist. */
export function hasSessionCookies(): boolean {
  return Boolean(getCookie(ACCESS_TOKEN_COOKIE)) && getCookie(USER_COOKIE) !== undefined;
}
