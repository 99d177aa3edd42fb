/**
 * The session: who is logged in, with which tokens, and when the access token is renewed.
 * Owns the decisions of spec §4 and §8: log in, renew the access token TOKEN_REFRESH_THRESHOLD_MS
 * before it expires (rotating both tokens), end the session on a 401 or an invalid refresh token, and
 * log out (sign-out call, clear all local storage, go to /).
 * Does not own IO: the token and sign-out calls are the actors `login`, `refresh` and `signOut`, and
 * storage and navigation are the actions `persistSession`, `clearStorage` and `goHome`, all supplied by
 * the entry with `sessionMachine.provide(...)`. The HTTP client only reports a 401 (`session.unauthorized`).
 */
import { assertEvent, assign, fromPromise, setup, type ActorLogicFrom } from 'xstate';
import {
  REFRESH_TOKEN_INVALID_MESSAGE,
  TOKEN_REFRESH_THRESHOLD_MS,
  type CurrentUser,
  type PasswordGrant,
  type RegisterRequest,
  type SmsGrant,
  type TokenResponse,
} from '../shared/contract/auth';
import { sessionFromTokenResponse, type StoredSession } from '../shared/contract/session';

export { TOKEN_REFRESH_THRESHOLD_MS };
export type { StoredSession };

/** After a renewal failed for want of a network, try again this much later. */
export const REFRESH_RETRY_MS = 30_000;
/** Longest delay a browser timer honours (2^31 − 1 ms); longer waits are taken in steps. */
export const MAX_TIMER_MS = 2_147_483_647;
/** Shown when a login fails without a message of its own. */
export const LOGIN_FAILED_MESSAGE = '登录失败，请稍后重试';

export type LoginRequest =
  { kind: 'password'; grant: PasswordGrant } | { kind: 'sms'; grant: SmsGrant } | { kind: 'register'; form: RegisterRequest };

export type UnauthorizedReason = 'status401' | 'refreshInvalid';

export type SessionInput = { stored: StoredSession | null; now?: () => number };

export type SessionContext = {
  session: StoredSession | null;
  /** The last login failure, in Chinese, for the login form; cleared when a new login starts. */
  error: string | null;
  /** The clock the expiry arithmetic uses (injected so tests and the entry agree on "now"). */
  now: () => number;
};

export type SessionEvent =
  | { type: 'session.login'; request: LoginRequest }
  | { type: 'session.logout' }
  | { type: 'session.unauthorized'; reason: UnauthorizedReason }
  | { type: 'user.updated'; user: CurrentUser };

function notProvided(name: string): never {
  throw new Error(`${name} not provided`);
}

function messageOf(error: unknown): string | null {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return null;
}

/** The server refused the refresh token itself (as opposed to the network failing). */
function isRefreshRejected(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return messageOf(error) === REFRESH_TOKEN_INVALID_MESSAGE || status === 401;
}

function requireSession(context: SessionContext): StoredSession {
  return context.session ?? notProvided('a session');
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as 'authenticated',
  },
  actors: {
    login: fromPromise<TokenResponse, LoginRequest>(async () => notProvided('login')),
    refresh: fromPromise<TokenResponse, { refreshToken: string }>(async () => notProvided('refresh')),
    signOut: fromPromise<void, { accessToken: string }>(async () => notProvided('signOut')),
  },
  actions: {
    persistSession: (_, _params: { session: StoredSession }) => notProvided('persistSession'),
    clearStorage: () => notProvided('clearStorage'),
    goHome: () => notProvided('goHome'),
    forgetSession: assign({ session: null }),
    updateUser: assign(({ context, event }) => {
      assertEvent(event, 'user.updated');
      return { session: context.session && { ...context.session, user: event.user } };
    }),
  },
  guards: {
    hasSession: ({ context }) => context.session !== null,
    refreshDue: ({ context }) =>
      context.session !== null && context.session.expiresAt - context.now() - TOKEN_REFRESH_THRESHOLD_MS <= 0,
    refreshRejected: (_, params: { error: unknown }) => isRefreshRejected(params.error),
    sessionExpired: ({ context }) => context.session === null || context.session.expiresAt <= context.now(),
  },
  delays: {
    refreshLead: ({ context }) => {
      if (!context.session) return 0;
      const lead = context.session.expiresAt - context.now() - TOKEN_REFRESH_THRESHOLD_MS;
      return Math.min(MAX_TIMER_MS, Math.max(0, lead));
    },
    refreshRetry: REFRESH_RETRY_MS,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ session: input.stored, error: null, now: input.now ?? Date.now }),
  initial: 'loggedOut',
  states: {
    loggedOut: {
      // A session restored from storage starts logged in (and, inside the threshold, renews at once).
      always: { guard: 'hasSession', target: 'loggedIn' },
      on: {
        'session.login': { target: 'loggingIn', actions: assign({ error: null }) },
      },
    },
    loggingIn: {
      invoke: {
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'session.login');
          return event.request;
        },
        onDone: {
          target: 'loggedIn',
          actions: [
            assign({ session: ({ context, event }) => sessionFromTokenResponse(event.output, context.now()) }),
            { type: 'persistSession', params: ({ context }) => ({ session: requireSession(context) }) },
          ],
        },
        onError: {
          target: 'loggedOut',
          actions: assign({ error: ({ event }) => messageOf(event.error) ?? LOGIN_FAILED_MESSAGE }),
        },
      },
    },
    loggedIn: {
      tags: 'authenticated',
      initial: 'scheduled',
      states: {
        scheduled: {
          after: {
            refreshLead: [
              { guard: 'refreshDue', target: '#session.refreshing' },
              // The lead was longer than a timer can wait: wait again for the rest.
              { target: 'scheduled', reenter: true },
            ],
          },
        },
        retrying: {
          after: { refreshRetry: '#session.refreshing' },
        },
      },
      on: {
        'user.updated': {
          actions: ['updateUser', { type: 'persistSession', params: ({ context }) => ({ session: requireSession(context) }) }],
        },
        'session.logout': 'loggingOut',
        'session.unauthorized': { target: 'loggedOut', actions: ['forgetSession', 'clearStorage', 'goHome'] },
      },
    },
    refreshing: {
      tags: 'authenticated',
      invoke: {
        src: 'refresh',
        input: ({ context }) => ({ refreshToken: requireSession(context).refreshToken }),
        onDone: {
          target: 'loggedIn',
          actions: [
            assign({ session: ({ context, event }) => sessionFromTokenResponse(event.output, context.now()) }),
            { type: 'persistSession', params: ({ context }) => ({ session: requireSession(context) }) },
          ],
        },
        onError: [
          {
            guard: { type: 'refreshRejected', params: ({ event }) => ({ error: event.error }) },
            target: 'loggedOut',
            actions: ['forgetSession', 'clearStorage', 'goHome'],
          },
          // Without a network an expired session cannot be used; one still valid waits and retries.
          { guard: 'sessionExpired', target: 'loggedOut', actions: ['forgetSession', 'clearStorage', 'goHome'] },
          { target: 'loggedIn.retrying' },
        ],
      },
      on: {
        'user.updated': {
          actions: ['updateUser', { type: 'persistSession', params: ({ context }) => ({ session: requireSession(context) }) }],
        },
        'session.logout': 'loggingOut',
        'session.unauthorized': { target: 'loggedOut', actions: ['forgetSession', 'clearStorage', 'goHome'] },
      },
    },
    loggingOut: {
      invoke: {
        src: 'signOut',
        input: ({ context }) => ({ accessToken: requireSession(context).accessToken }),
        // Logging out always ends the local session, whether or not the server heard of it.
        onDone: { target: 'loggedOut', actions: ['forgetSession', 'clearStorage', 'goHome'] },
        onError: { target: 'loggedOut', actions: ['forgetSession', 'clearStorage', 'goHome'] },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
export type SessionLogic = ActorLogicFrom<SessionMachine>;
