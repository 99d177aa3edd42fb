import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../../src/shared/contract/auth';
import {
  ACCESS_TOKEN_COOKIE,
  USER_COOKIE,
  clearSession,
  hasSessionCookies,
  loadGradeInfo,
  loadSession,
  saveGradeInfo,
  saveSession,
  type StoredSession,
} from '../../../src/shared/adapters/session-storage';

const user: CurrentUser = {
  id: 7,
  username: 'zhang',
  nickname: '张老师',
  mobile: '138****0001',
  avatar: null,
  wechatBound: false,
  userGradeInfo: {
    orgDefaultId: 1,
    orgName: '实验中学',
    gradeDirector: false,
    isCreator: true,
    classDefaultId: null,
    classDefaultName: null,
  },
  orgs: [{ id: 1, name: '实验中学', role: 'creator', gradeDirector: false }],
};
const session: StoredSession = { accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: 1_700_000_000_000, user };

afterEach(() => {
  Cookies.remove(ACCESS_TOKEN_COOKIE, { path: '/' });
  Cookies.remove(USER_COOKIE, { path: '/' });
  localStorage.clear();
});

describe('session storage', () => {
  it('loads back exactly the session it saved', () => {
    saveSession(session);
    expect(loadSession()).toEqual(session);
  });

  it('keeps the access token in the access_token cookie and the username in the user cookie, not the tokens in local storage', () => {
    saveSession(session);
    expect(Cookies.get(ACCESS_TOKEN_COOKIE)).toBe('access-1');
    expect(Cookies.get(USER_COOKIE)).toBe('zhang');
    expect(localStorage.getItem('session')).not.toContain('access-1');
  });

  it('loads nothing when there is nothing stored', () => {
    expect(loadSession()).toBeNull();
  });

  it('loads nothing when the access-token cookie is gone', () => {
    saveSession(session);
    Cookies.remove(ACCESS_TOKEN_COOKIE, { path: '/' });
    expect(loadSession()).toBeNull();
  });

  it('loads nothing when the user cookie is gone', () => {
    saveSession(session);
    Cookies.remove(USER_COOKIE, { path: '/' });
    expect(loadSession()).toBeNull();
  });

  it('loads nothing when the stored part is corrupt or incomplete', () => {
    saveSession(session);
    localStorage.setItem('session', '{oops');
    expect(loadSession()).toBeNull();
    localStorage.setItem('session', JSON.stringify({ refreshToken: 'r', expiresAt: 1 }));
    expect(loadSession()).toBeNull();
    localStorage.setItem('session', JSON.stringify({ refreshToken: 'r', expiresAt: 'soon', user }));
    expect(loadSession()).toBeNull();
  });

  it('clears both cookies and all of local storage', () => {
    saveSession(session);
    saveGradeInfo({ id: 3, name: '高一' });
    localStorage.setItem('scannerSettings', '{}');
    clearSession();
    expect(Cookies.get(ACCESS_TOKEN_COOKIE)).toBeUndefined();
    expect(Cookies.get(USER_COOKIE)).toBeUndefined();
    expect(localStorage.length).toBe(0);
    expect(loadSession()).toBeNull();
  });

  it('reports session cookies only when both the access-token and the user cookie exist', () => {
    expect(hasSessionCookies()).toBe(false);
    Cookies.set(ACCESS_TOKEN_COOKIE, 'a', { path: '/' });
    expect(hasSessionCookies()).toBe(false);
    Cookies.set(USER_COOKIE, 'zhang', { path: '/' });
    expect(hasSessionCookies()).toBe(true);
    Cookies.remove(ACCESS_TOKEN_COOKIE, { path: '/' });
    expect(hasSessionCookies()).toBe(false);
  });

  it('stores the chosen school year under gradeInfo and loads it back', () => {
    expect(loadGradeInfo()).toBeNull();
    saveGradeInfo({ id: 3, name: '高一' });
    expect(JSON.parse(localStorage.getItem('gradeInfo')!)).toEqual({ id: 3, name: '高一' });
    expect(loadGradeInfo()).toEqual({ id: 3, name: '高一' });
  });

  it('loads no school year from a corrupt gradeInfo', () => {
    localStorage.setItem('gradeInfo', JSON.stringify({ id: 'x' }));
    expect(loadGradeInfo()).toBeNull();
  });
});
