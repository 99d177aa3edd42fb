/**
 * The session runtime both the teacher portal and the scan-station kiosk build: one HTTP client, the
 * session actor with its real actors over the persisted session, and the school-year machine, composed
 * into the portal's services. Each entry says only what "go home" means for it.
 */
import { Toast } from '@douyinfe/semi-ui-19';
import { createActor, fromPromise } from 'xstate';
import type { PortalServices } from '../src/features/portal/portal-services';
import { schoolYearMachine } from '../src/machines/school-year.machine';
import { sessionMachine, type LoginRequest } from '../src/machines/session.machine';
import { createLazyRealtimeSocket } from '../src/shared/adapters/lazy-realtime-socket';
import { createHttpClient, requestSignOut, requestToken } from '../src/shared/adapters/http-client';
import {
  clearSession,
  hasSessionCookies,
  loadGradeInfo,
  loadSession,
  saveGradeInfo,
  saveSession,
} from '../src/shared/adapters/session-storage';
import { currentUserSchema, tokenResponseSchema } from '../src/shared/contract/auth';
import { classListSchema, CLASS_TYPE } from '../src/shared/contract/system';

export function createPortalRuntime({ goHome }: { goHome: () => void }) {
  const http = createHttpClient({
    getAccessToken: () => session.getSnapshot().context.session?.accessToken ?? null,
    onUnauthorized: (reason) => session.send({ type: 'session.unauthorized', reason }),
    notify: (message, durationMs) => Toast.error({ content: message, duration: durationMs / 1000 }),
  });

  const session = createActor(
    sessionMachine.provide({
      actors: {
        login: fromPromise(({ input }: { input: LoginRequest }) =>
          input.kind === 'register'
            ? http.postJson('/api/user/register', input.form, tokenResponseSchema)
            : requestToken(http, input.grant, { silent: false }),
        ),
        refresh: fromPromise(({ input }: { input: { refreshToken: string } }) =>
          requestToken(http, { grant_type: 'refresh_token', refresh_token: input.refreshToken }),
        ),
        signOut: fromPromise(({ input }: { input: { accessToken: string } }) => requestSignOut(http, input.accessToken)),
      },
      actions: {
        persistSession: (_, params) => saveSession(params.session),
        clearStorage: () => clearSession(),
        goHome,
      },
    }),
    { input: { stored: loadSession() } },
  );
  session.start();

  // The stored user may be stale (a new role, another default school): refresh it once per page load.
  if (session.getSnapshot().hasTag('authenticated')) {
    http
      .get('/api/user/info', undefined, { schema: currentUserSchema, silent: true })
      .then((user) => session.send({ type: 'user.updated', user }))
      .catch(() => undefined);
  }

  // One live socket per tab, in the school's room of whoever is logged in: a login, logout or refreshed
  // token reconnects it with the new token. Its code is fetched when a page first listens to it.
  const socket = createLazyRealtimeSocket({ getAccessToken: () => session.getSnapshot().context.session?.accessToken ?? null });
  let lastToken: string | null = session.getSnapshot().context.session?.accessToken ?? null;
  session.subscribe((snapshot) => {
    const token = snapshot.context.session?.accessToken ?? null;
    if (token === lastToken) return;
    lastToken = token;
    socket.reconnect();
  });

  const portalServices = (imageBaseUrl: string): PortalServices => ({
    http,
    session,
    schoolYearMachine: schoolYearMachine.provide({
      actors: {
        fetchSchoolYears: fromPromise(({ input }: { input: { orgId: number } }) =>
          http.get('/api/system/class', { orgId: input.orgId, type: CLASS_TYPE.schoolYear, pid: null }, classListSchema),
        ),
        saveDefault: fromPromise(async ({ input }: { input: { orgId: number; classId: number } }) => {
          await http.putForm('/api/system/class/updateClassDefault', input);
        }),
      },
      actions: {
        storeGradeInfo: (_, params) => saveGradeInfo(params),
        reloadPage: () => window.location.reload(),
      },
    }),
    hasSessionCookies,
    loadGradeInfo,
    imageBaseUrl,
    socket,
  });

  return { http, session, socket, portalServices };
}
