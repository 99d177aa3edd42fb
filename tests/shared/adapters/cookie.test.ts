import { afterEach, describe, expect, it, vi } from 'vitest';
import { getCookie, removeCookie, setCookie } from '../../../src/shared/adapters/cookie';

afterEach(() => {
  for (const name of ['a', 'b', 'token']) removeCookie(name);
  vi.useRealTimers();
});

describe('cookie helper', () => {
  it('sets a cookie and reads it back, encoding non-ASCII values', () => {
    setCookie('a', '张老师', 1);
    expect(getCookie('a')).toBe('张老师');
  });

  it('answers the default when the cookie is not set, and undefined without one', () => {
    expect(getCookie('b', 'fallback')).toBe('fallback');
    expect(getCookie('b')).toBeUndefined();
  });

  it('deletes a cookie', () => {
    setCookie('a', '1', 1);
    removeCookie('a');
    expect(getCookie('a')).toBeUndefined();
  });

  it('lets a cookie set with days of expiry lapse after those days', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-03-01T00:00:00Z'));
    setCookie('token', 'x', 2);
    vi.setSystemTime(new Date('2024-03-02T23:00:00Z'));
    expect(getCookie('token')).toBe('x');
    vi.setSystemTime(new Date('2024-03-03T00:00:01Z'));
    expect(getCookie('token')).toBeUndefined();
  });
});
