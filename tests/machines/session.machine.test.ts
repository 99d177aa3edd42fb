/**
 * The session machine against a model of spec §4 and §8.
 *
 * @xstate/graph's createTestModel refuses machines that invoke actors or use delays ("Invocations on
 * test machines are not supported"), and the session machine does both. So the model below is a plain
 * machine of what a visitor and the outside world can do (log in, let time pass, have the server answer
 * 401, have a call succeed or fail), and every path through it drives the real machine, provided with
 * fake actors and actions, under fake timers. After each step the fake system (persisted session,
 * cleared storage, navigation, calls made) is checked against what that step must have caused.
 */
import { createTestModel } from '@xstate/graph';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, setup, type Actor } from 'xstate';
import {
  LOGIN_FAILED_MESSAGE,
  MAX_TIMER_MS,
  REFRESH_RETRY_MS,
  sessionMachine,
  type LoginRequest,
  type StoredSession,
} from '../../src/machines/session.machine';
import {
  REFRESH_TOKEN_INVALID_MESSAGE,
  TOKEN_REFRESH_THRESHOLD_MS,
  type CurrentUser,
  type TokenResponse,
} from '../../src/shared/contract/auth';

const T0 = Date.UTC(2024, 8, 1, 0, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ACCESS_TTL_SECONDS = 7200;

const user: CurrentUser = {
  id: 7,
  username: 'zhang',
  nickname: '张老师',
  mobile: null,
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
  orgs: [],
};

const passwordLogin: LoginRequest = {
  kind: 'password',
  grant: { grant_type: 'password', username: 'zhang', password: 'secret123', captchaKey: 'k1', captcha: 'abcd' },
};

/** An error as the HTTP client rejects with (ApiRequestError's shape, without importing the adapter). */
function apiError(message: string, status: number): Error & { status: number } {
  return Object.assign(new Error(message), { status });
}

const flush = async () => {
  for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
};

type Deferred<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };
type Effect = { type: 'persist'; session: StoredSession } | { type: 'clearStorage' } | { type: 'goHome' };

/** The real machine with fake IO, and a record of everything it did to the outside world. */
function createFakeSystem(stored: StoredSession | null, options: { now?: () => number } = {}) {
  const system = {
    /** What the fake storage holds: persistSession writes it, clearStorage empties it. */
    storage: stored,
    effects: [] as Effect[],
    logins: [] as LoginRequest[],
    refreshes: [] as { refreshToken: string; at: number }[],
    signOuts: [] as string[],
    pending: {} as { login?: Deferred<TokenResponse>; refresh?: Deferred<TokenResponse>; signOut?: Deferred<void> },
    issued: 0,
    actor: undefined as unknown as Actor<typeof sessionMachine>,
    /** Effects since the last call. */
    takeEffects(): Effect[] {
      return system.effects.splice(0);
    },
    /** A token answer with fresh tokens, as the server rotates them. */
    nextTokens(): TokenResponse {
      system.issued += 1;
      return {
        access_token: `access-${system.issued}`,
        refresh_token: `refresh-${system.issued}`,
        token_type: 'bearer',
        expires_in: ACCESS_TTL_SECONDS,
        user,
      };
    },
    get snapshot() {
      return system.actor.getSnapshot();
    },
  };
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise<TokenResponse, LoginRequest>(({ input }) => {
        system.logins.push(input);
        return new Promise((resolve, reject) => (system.pending.login = { resolve, reject }));
      }),
      refresh: fromPromise<TokenResponse, { refreshToken: string }>(({ input }) => {
        system.refreshes.push({ refreshToken: input.refreshToken, at: Date.now() });
        return new Promise((resolve, reject) => (system.pending.refresh = { resolve, reject }));
      }),
      signOut: fromPromise<void, { accessToken: string }>(({ input }) => {
        system.signOuts.push(input.accessToken);
        return new Promise((resolve, reject) => (system.pending.signOut = { resolve, reject }));
      }),
    },
    actions: {
      persistSession: (_, params) => {
        system.storage = params.session;
        system.effects.push({ type: 'persist', session: params.session });
      },
      clearStorage: () => {
        system.storage = null;
        system.effects.push({ type: 'clearStorage' });
      },
      goHome: () => {
        system.effects.push({ type: 'goHome' });
      },
    },
  });
  system.actor = createActor(machine, { input: { stored, ...options } });
  system.actor.start();
  return system;
}
type FakeSystem = ReturnType<typeof createFakeSystem>;

function storedSession(expiresAt: number): StoredSession {
  return { accessToken: 'stored-access', refreshToken: 'stored-refresh', expiresAt, user };
}

const ENDED: Effect[] = [{ type: 'clearStorage' }, { type: 'goHome' }];

// ---- the model ---------------------------------------------------------------------------------

const sessionModel = setup({
  types: {
    context: {} as { expired: boolean },
    events: {} as
      | { type: 'boot.empty' }
      | { type: 'boot.stored' }
      | { type: 'boot.storedInsideThreshold' }
      | { type: 'boot.storedExpired' }
      | { type: 'user.logsIn' }
      | { type: 'login.succeeds' }
      | { type: 'login.fails' }
      | { type: 'clock.reachesRefreshLead' }
      | { type: 'refresh.succeeds' }
      | { type: 'refresh.rejectedAsInvalid' }
      | { type: 'refresh.rejectedWith401' }
      | { type: 'refresh.failsOffline' }
      | { type: 'clock.reachesRetry' }
      | { type: 'server.answers401' }
      | { type: 'server.reportsRefreshInvalid' }
      | { type: 'user.updatesProfile' }
      | { type: 'user.logsOut' }
      | { type: 'signOut.succeeds' }
      | { type: 'signOut.fails' },
  },
  guards: { expired: ({ context }) => context.expired },
}).createMachine({
  id: 'sessionModel',
  context: { expired: false },
  initial: 'boot',
  states: {
    boot: {
      on: {
        'boot.empty': 'loggedOut',
        'boot.stored': 'loggedIn',
        'boot.storedInsideThreshold': 'loggedIn',
        'boot.storedExpired': { target: 'loggedIn', actions: assign({ expired: true }) },
      },
    },
    loggedOut: {
      entry: assign({ expired: false }),
      on: { 'user.logsIn': 'loggingIn' },
    },
    loggingIn: {
      on: { 'login.succeeds': 'loggedIn', 'login.fails': 'loggedOut' },
    },
    loggedIn: {
      on: {
        'clock.reachesRefreshLead': 'refreshing',
        'server.answers401': 'loggedOut',
        'server.reportsRefreshInvalid': 'loggedOut',
        'user.updatesProfile': 'loggedIn',
        'user.logsOut': 'loggingOut',
      },
    },
    refreshing: {
      on: {
        'refresh.succeeds': { target: 'loggedIn', actions: assign({ expired: false }) },
        'refresh.rejectedAsInvalid': 'loggedOut',
        'refresh.rejectedWith401': 'loggedOut',
        'refresh.failsOffline': [{ guard: 'expired', target: 'loggedOut' }, { target: 'retrying' }],
        'server.answers401': 'loggedOut',
        'user.logsOut': 'loggingOut',
      },
    },
    retrying: {
      on: {
        'clock.reachesRetry': 'refreshing',
        'server.answers401': 'loggedOut',
        'user.logsOut': 'loggingOut',
      },
    },
    loggingOut: {
      on: { 'signOut.succeeds': 'loggedOut', 'signOut.fails': 'loggedOut' },
    },
  },
});

/** How each model event is carried out on the real machine, and what it must have caused. */
function stepsFor(holder: { system?: FakeSystem }) {
  const sys = () => holder.system ?? expect.fail('the machine has not been started');
  const boot = (stored: StoredSession | null) => {
    holder.system = createFakeSystem(stored);
    expect(sys().takeEffects()).toEqual([]);
  };
  const settle = async (expected: Effect[]) => {
    await flush();
    expect(sys().takeEffects()).toEqual(expected);
  };
  return {
    'boot.empty': () => boot(null),
    'boot.stored': () => boot(storedSession(Date.now() + HOUR)),
    'boot.storedInsideThreshold': () => boot(storedSession(Date.now() + 2 * MINUTE)),
    'boot.storedExpired': () => boot(storedSession(Date.now() - HOUR)),
    'user.logsIn': () => {
      sys().actor.send({ type: 'session.login', request: passwordLogin });
      expect(sys().logins.at(-1)).toEqual(passwordLogin);
      expect(sys().takeEffects()).toEqual([]);
    },
    'login.succeeds': async () => {
      const tokens = sys().nextTokens();
      sys().pending.login!.resolve(tokens);
      await settle([
        {
          type: 'persist',
          session: {
            accessToken: tokens.access_token,
            refreshToken: tokens.refresh_token,
            expiresAt: Date.now() + ACCESS_TTL_SECONDS * 1000,
            user,
          },
        },
      ]);
    },
    'login.fails': async () => {
      sys().pending.login!.reject(apiError('用户名或密码错误', 400));
      await settle([]);
      expect(sys().snapshot.context.error).toBe('用户名或密码错误');
    },
    'clock.reachesRefreshLead': async () => {
      const session = sys().snapshot.context.session!;
      const calls = sys().refreshes.length;
      const lead = Math.max(0, session.expiresAt - Date.now() - TOKEN_REFRESH_THRESHOLD_MS);
      if (lead > 0) {
        await vi.advanceTimersByTimeAsync(lead - 1);
        expect(sys().refreshes).toHaveLength(calls);
        expect(sys().snapshot.matches('loggedIn')).toBe(true);
        await vi.advanceTimersByTimeAsync(1);
        // Exactly five minutes before expiry, not a millisecond earlier.
        expect(sys().refreshes.at(-1)!.at).toBe(session.expiresAt - TOKEN_REFRESH_THRESHOLD_MS);
      } else {
        // Already inside the threshold (or expired): renew at once.
        await vi.advanceTimersByTimeAsync(0);
      }
      expect(sys().refreshes).toHaveLength(calls + 1);
      expect(sys().refreshes.at(-1)!.refreshToken).toBe(session.refreshToken);
      expect(sys().takeEffects()).toEqual([]);
    },
    'refresh.succeeds': async () => {
      const tokens = sys().nextTokens();
      sys().pending.refresh!.resolve(tokens);
      // Rotation: both new tokens replace the old ones in storage.
      await settle([
        {
          type: 'persist',
          session: {
            accessToken: tokens.access_token,
            refreshToken: tokens.refresh_token,
            expiresAt: Date.now() + ACCESS_TTL_SECONDS * 1000,
            user,
          },
        },
      ]);
    },
    'refresh.rejectedAsInvalid': async () => {
      sys().pending.refresh!.reject(apiError(REFRESH_TOKEN_INVALID_MESSAGE, 400));
      await settle(ENDED);
    },
    'refresh.rejectedWith401': async () => {
      sys().pending.refresh!.reject(apiError('登录已失效，请重新登录', 401));
      await settle(ENDED);
    },
    'refresh.failsOffline': async () => {
      const expired = sys().snapshot.context.session!.expiresAt <= Date.now();
      sys().pending.refresh!.reject(apiError('网络连接失败，请检查网络后重试', 0));
      await settle(expired ? ENDED : []);
    },
    'clock.reachesRetry': async () => {
      const calls = sys().refreshes.length;
      await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MS - 1);
      expect(sys().refreshes).toHaveLength(calls);
      await vi.advanceTimersByTimeAsync(1);
      expect(sys().refreshes).toHaveLength(calls + 1);
      expect(sys().takeEffects()).toEqual([]);
    },
    'server.answers401': async () => {
      sys().actor.send({ type: 'session.unauthorized', reason: 'status401' });
      await settle(ENDED);
    },
    'server.reportsRefreshInvalid': async () => {
      sys().actor.send({ type: 'session.unauthorized', reason: 'refreshInvalid' });
      await settle(ENDED);
    },
    'user.updatesProfile': async () => {
      const before = sys().snapshot.context.session!;
      const renamed = { ...before.user, nickname: `${before.user.nickname}!` };
      sys().actor.send({ type: 'user.updated', user: renamed });
      await settle([{ type: 'persist', session: { ...before, user: renamed } }]);
    },
    'user.logsOut': async () => {
      const token = sys().snapshot.context.session!.accessToken;
      sys().actor.send({ type: 'session.logout' });
      // Signs out the token of the session being ended; nothing is cleared before the call ends.
      expect(sys().signOuts.at(-1)).toBe(token);
      await settle([]);
    },
    'signOut.succeeds': async () => {
      sys().pending.signOut!.resolve();
      await settle(ENDED);
    },
    'signOut.fails': async () => {
      sys().pending.signOut!.reject(apiError('网络连接失败，请检查网络后重试', 0));
      await settle(ENDED);
    },
  };
}

/** What must hold in each model state. */
function checksFor(holder: { system?: FakeSystem }) {
  const loggedOutLike = (value: 'loggedOut' | 'loggingIn' | 'loggingOut') => () => {
    const { snapshot, storage } = holder.system!;
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toBe(value);
    expect(snapshot.hasTag('authenticated')).toBe(false);
    if (value !== 'loggingOut') {
      expect(snapshot.context.session).toBeNull();
      expect(storage).toBeNull();
    }
  };
  const authenticated = (value: { loggedIn: 'scheduled' | 'retrying' } | 'refreshing') => () => {
    const { snapshot, storage } = holder.system!;
    expect(snapshot.status).toBe('active');
    expect(snapshot.value).toEqual(value);
    // The UI asks state.matches('loggedIn') while the session is usable.
    expect(snapshot.matches('loggedIn')).toBe(value !== 'refreshing');
    expect(snapshot.hasTag('authenticated')).toBe(true);
    // What is in memory is what is persisted.
    expect(snapshot.context.session).not.toBeNull();
    expect(storage).toEqual(snapshot.context.session);
    expect(snapshot.context.error).toBeNull();
  };
  return {
    boot: () => expect(holder.system).toBeUndefined(),
    loggedOut: loggedOutLike('loggedOut'),
    loggingIn: loggedOutLike('loggingIn'),
    loggingOut: loggedOutLike('loggingOut'),
    loggedIn: authenticated({ loggedIn: 'scheduled' }),
    retrying: authenticated({ loggedIn: 'retrying' }),
    refreshing: authenticated('refreshing'),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('session machine, model-based', () => {
  // Shortest paths tell transitions apart by where they came from and by which event, self-loops
  // included (by default @xstate/graph folds a state's self-loops into one vertex), so together they
  // take every transition of the model. Simple paths are taken over states alone: every route through
  // distinct states (also telling transitions apart would make some 2800 paths).
  const shortest = createTestModel(sessionModel, {
    serializeTransition: (_state, event, previous) => (event ? ` via ${event.type} from ${JSON.stringify(previous?.value)}` : ''),
  }).getShortestPaths();
  const simple = createTestModel(sessionModel, { serializeTransition: () => '' }).getSimplePaths();

  it('walks every state and every event of the model', () => {
    const steps = [...shortest, ...simple].flatMap((path) => path.steps);
    const states = new Set(steps.map((step) => JSON.stringify(step.state.value)));
    expect([...states].sort()).toEqual(
      ['boot', 'loggedOut', 'loggingIn', 'loggedIn', 'refreshing', 'retrying', 'loggingOut']
        .map((value) => JSON.stringify(value))
        .sort(),
    );
    const events = new Set(shortest.flatMap((path) => path.steps.map((step) => step.event.type)));
    expect(events.size).toBe(sessionModel.events.length + 1); // + xstate.init
  });

  describe.each([
    ['shortest', shortest],
    ['simple', simple],
  ])('%s paths', (_kind, paths) => {
    it.each(paths.map((path) => [path.description, path] as const))('%s', async (_description, path) => {
      const holder: { system?: FakeSystem } = {};
      await path.test({ events: stepsFor(holder), states: checksFor(holder) });
      holder.system?.actor.stop();
    });
  });
});

// ---- edge timings and details, arrange/act/assert ---------------------------------------------------

describe('session machine', () => {
  it('starts logged out without a stored session, and logged in with one', () => {
    expect(createFakeSystem(null).snapshot.value).toBe('loggedOut');
    const restored = createFakeSystem(storedSession(T0 + HOUR));
    expect(restored.snapshot.matches('loggedIn')).toBe(true);
    expect(restored.snapshot.context.session).toEqual(storedSession(T0 + HOUR));
  });

  it('renews a session restored inside the threshold at once', async () => {
    const system = createFakeSystem(storedSession(T0 + TOKEN_REFRESH_THRESHOLD_MS - 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(system.snapshot.value).toBe('refreshing');
    expect(system.refreshes).toEqual([{ refreshToken: 'stored-refresh', at: T0 }]);
  });

  it('renews at exactly expiry minus 5 minutes, using the injected clock', async () => {
    const system = createFakeSystem(storedSession(T0 + 2 * HOUR), { now: () => Date.now() });
    await vi.advanceTimersByTimeAsync(2 * HOUR - 5 * MINUTE - 1);
    expect(system.refreshes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(system.refreshes).toEqual([{ refreshToken: 'stored-refresh', at: T0 + 2 * HOUR - 300_000 }]);
  });

  it('schedules the next renewal from the rotated tokens', async () => {
    const system = createFakeSystem(storedSession(T0 + TOKEN_REFRESH_THRESHOLD_MS));
    await vi.advanceTimersByTimeAsync(0);
    system.pending.refresh!.resolve(system.nextTokens());
    await flush();
    expect(system.snapshot.context.session).toMatchObject({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: T0 + 7200_000,
    });
    await vi.advanceTimersByTimeAsync(7200_000 - 300_000 - 1);
    expect(system.refreshes).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(system.refreshes.at(-1)).toEqual({ refreshToken: 'refresh-1', at: T0 + 7200_000 - 300_000 });
  });

  it('waits out a lead longer than a browser timer can hold without renewing early', async () => {
    const farAway = T0 + MAX_TIMER_MS + 10 * HOUR;
    const system = createFakeSystem(storedSession(farAway));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
    expect(system.refreshes).toHaveLength(0);
    expect(system.snapshot.matches('loggedIn')).toBe(true);
    await vi.advanceTimersByTimeAsync(farAway - TOKEN_REFRESH_THRESHOLD_MS - Date.now());
    expect(system.refreshes).toEqual([{ refreshToken: 'stored-refresh', at: farAway - TOKEN_REFRESH_THRESHOLD_MS }]);
  });

  it('keeps retrying an offline renewal every 30 seconds, and ends the session once the token has expired', async () => {
    const system = createFakeSystem(storedSession(T0 + TOKEN_REFRESH_THRESHOLD_MS));
    await vi.advanceTimersByTimeAsync(0);
    const attempts = TOKEN_REFRESH_THRESHOLD_MS / REFRESH_RETRY_MS;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      system.pending.refresh!.reject(apiError('网络连接失败，请检查网络后重试', 0));
      await flush();
      expect(system.snapshot.value).toEqual({ loggedIn: 'retrying' });
      await vi.advanceTimersByTimeAsync(REFRESH_RETRY_MS);
      expect(system.refreshes).toHaveLength(attempt + 1);
    }
    expect(Date.now()).toBe(T0 + TOKEN_REFRESH_THRESHOLD_MS);
    system.pending.refresh!.reject(apiError('网络连接失败，请检查网络后重试', 0));
    await flush();
    expect(system.snapshot.value).toBe('loggedOut');
    expect(system.takeEffects()).toEqual(ENDED);
  });

  it('treats a refresh rejected with the invalid-token message as the end of the session even without a status', async () => {
    const system = createFakeSystem(storedSession(T0));
    await vi.advanceTimersByTimeAsync(0);
    system.pending.refresh!.reject(new Error(REFRESH_TOKEN_INVALID_MESSAGE));
    await flush();
    expect(system.snapshot.value).toBe('loggedOut');
    expect(system.snapshot.context.session).toBeNull();
    expect(system.takeEffects()).toEqual(ENDED);
  });

  it('ignores the answer of a renewal cut short by a logout, and signs out the token it had', async () => {
    const system = createFakeSystem(storedSession(T0 + MINUTE));
    await vi.advanceTimersByTimeAsync(0);
    system.actor.send({ type: 'session.logout' });
    expect(system.signOuts).toEqual(['stored-access']);
    system.pending.refresh!.resolve(system.nextTokens());
    await flush();
    expect(system.takeEffects()).toEqual([]);
    system.pending.signOut!.reject(new Error('boom'));
    await flush();
    expect(system.snapshot.value).toBe('loggedOut');
    expect(system.takeEffects()).toEqual(ENDED);
  });

  it('stops the renewal timer when the session ends', async () => {
    const system = createFakeSystem(storedSession(T0 + HOUR));
    system.actor.send({ type: 'session.unauthorized', reason: 'status401' });
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(system.refreshes).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores a 401 report while logged out or logging in (the login form shows its own error)', async () => {
    const system = createFakeSystem(null);
    system.actor.send({ type: 'session.unauthorized', reason: 'status401' });
    system.actor.send({ type: 'session.login', request: passwordLogin });
    system.actor.send({ type: 'session.unauthorized', reason: 'status401' });
    expect(system.snapshot.value).toBe('loggingIn');
    expect(system.takeEffects()).toEqual([]);
  });

  it.each([
    ['password', passwordLogin],
    ['sms', { kind: 'sms', grant: { grant_type: 'sms', mobile: '13800000001', smsCode: '123456' } }],
    [
      'register',
      {
        kind: 'register',
        form: { nickname: '张老师', mobile: '13800000001', smsCode: '123456', password: 'abc12345', password2: 'abc12345' },
      },
    ],
  ] as const)('hands a %s login request to the login actor unchanged', (_kind, request) => {
    const system = createFakeSystem(null);
    system.actor.send({ type: 'session.login', request });
    expect(system.logins).toEqual([request]);
  });

  it('clears the previous login error when a new login starts', async () => {
    const system = createFakeSystem(null);
    system.actor.send({ type: 'session.login', request: passwordLogin });
    system.pending.login!.reject(apiError('验证码错误', 400));
    await flush();
    expect(system.snapshot.context.error).toBe('验证码错误');
    system.actor.send({ type: 'session.login', request: passwordLogin });
    expect(system.snapshot.context.error).toBeNull();
  });

  it('shows a generic message for a login that fails without one', async () => {
    const system = createFakeSystem(null);
    system.actor.send({ type: 'session.login', request: passwordLogin });
    system.pending.login!.reject(undefined);
    await flush();
    expect(system.snapshot.context.error).toBe(LOGIN_FAILED_MESSAGE);
  });

  it('fails loudly when the entry forgets to provide an actor', () => {
    const actor = createActor(sessionMachine, { input: { stored: null } });
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    actor.send({ type: 'session.login', request: passwordLogin });
    return vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe('login not provided'));
  });
});
