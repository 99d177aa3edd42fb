/**
 * Renders portal components as the teacher entry does, with the real session and school-year machines
 * provided with fake actors, a fake HTTP client and an in-memory router.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { PortalServicesProvider, type PortalServices } from '../../../src/features/portal/portal-services';
import { schoolYearMachine } from '../../../src/machines/school-year.machine';
import { sessionMachine, type LoginRequest, type StoredSession } from '../../../src/machines/session.machine';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { CurrentUser, TokenResponse } from '../../../src/shared/contract/auth';
import type { ClassItem } from '../../../src/shared/contract/system';

export function makeUser(overrides: Partial<CurrentUser['userGradeInfo']> = {}, nickname = '王老师'): CurrentUser {
  return {
    id: 1,
    username: 'teacher',
    nickname,
    mobile: '138****0001',
    avatar: null,
    wechatBound: false,
    userGradeInfo: {
      orgDefaultId: 1,
      orgName: '示范中学',
      gradeDirector: false,
      isCreator: false,
      classDefaultId: 1,
      classDefaultName: '2026级 (初一)',
      ...overrides,
    },
    orgs: [],
  };
}

export function storedSession(user: CurrentUser): StoredSession {
  return { accessToken: 'access', refreshToken: 'refresh', expiresAt: Date.now() + 3_600_000, user };
}

/** Shows the current path, so tests can see where a click navigated. */
function LocationProbe() {
  const location = useLocation();
  return <output aria-label="当前地址">{location.pathname + location.search}</output>;
}

export function renderPortal(
  ui: ReactNode,
  options: {
    user?: CurrentUser | null;
    path?: string;
    /** Navigation state of the first entry (what the guard hands to /). */
    state?: unknown;
    schoolYears?: ClassItem[];
    gradeInfo?: ClassItem | null;
    /** The server's message for a failed login. */
    loginError?: string;
  } = {},
) {
  const {
    user = makeUser(),
    path = '/paperlist',
    state,
    schoolYears = [],
    gradeInfo = null,
    loginError = '用户名或密码错误',
  } = options;
  const saveDefault = vi.fn(async (_args: { input: { orgId: number; classId: number } }): Promise<void> => undefined);
  const storeGradeInfo = vi.fn();
  const reloadPage = vi.fn();
  const signOut = vi.fn(async (_args: { input: { accessToken: string } }): Promise<void> => undefined);
  const session = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise<TokenResponse, LoginRequest>(async () => {
          throw new Error(loginError);
        }),
        refresh: fromPromise<TokenResponse, { refreshToken: string }>(async () => {
          throw new Error('not expected');
        }),
        signOut: fromPromise(signOut),
      },
      actions: { persistSession: () => undefined, clearStorage: () => undefined, goHome: () => undefined },
    }),
    { input: { stored: user ? storedSession(user) : null } },
  );
  session.start();
  const services: PortalServices = {
    http: {
      get: vi.fn(async () => ({ captchaKey: 'k', svg: '<svg xmlns="http://www.w3.org/2000/svg"/>', expiresIn: 300 })),
    } as unknown as HttpClient,
    session,
    schoolYearMachine: schoolYearMachine.provide({
      actors: {
        fetchSchoolYears: fromPromise(async () => schoolYears),
        saveDefault: fromPromise(saveDefault),
      },
      actions: { storeGradeInfo: (_, params) => storeGradeInfo(params), reloadPage },
    }),
    hasSessionCookies: () => session.getSnapshot().hasTag('authenticated'),
    loadGradeInfo: () => gradeInfo,
    imageBaseUrl: '/files/',
    socket: null,
  };
  const view = render(
    <PortalServicesProvider services={services}>
      <MemoryRouter initialEntries={[state === undefined ? path : { pathname: path, state }]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {ui}
                <LocationProbe />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </PortalServicesProvider>,
  );
  return { ...view, session, saveDefault, storeGradeInfo, reloadPage, signOut };
}
