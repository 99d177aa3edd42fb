/**
 * The only code that reads or writes cookies (js-cookie). Cookies are site-wide (path /), SameSite=Lax,
 * and Secure when the page itself is served over HTTPS. What is stored in them is the caller's business.
 */
import Cookies from 'js-cookie';

function attributes(days?: number): Cookies.CookieAttributes {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  return { path: '/', sameSite: 'lax', secure, ...(days === undefined ? {} : { expires: days }) };
}

/** Sets a cookie that expires after `days` days (a fraction is fine), or at the end of the browser session. */
export function setCookie(name: string, value: string, days?: number): void {
  Cookies.set(name, value, attributes(days));
}

/** The cookie's value, or `fallback` when it is not set. */
export function getCookie(name: string): string | undefined;
export function getCookie(name: string, fallback: string): string;
export function getCookie(name: string, fallback?: string): string | undefined {
  return Cookies.get(name) ?? fallback;
}

export function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
}
