/**
 * Wall screens: the pairing lifecycle (code, expiry, collect once), who may pair, the privacy rule on
 * names, revocation that disconnects the screen at once, a display token that opens nothing but the
 * display's snapshot, and socket rooms that never carry another school's (or another class's) events.
 */
import type { AddressInfo } from 'node:net';
import type { RouteOptions } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { classes, orgs } from '../../../server/db/schema';
import {
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  PAIRING_TTL_MS,
  SCREEN_MESSAGES,
  SCREEN_REVOKED_EVENT,
  screenPairingSchema,
  screenSchema,
  type ScreenCreate,
} from '../../../src/shared/contract/large-screen';
import { bearer, failure, fakeClock, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';
import { addMember, demoSchool } from '../org/org-helper';
import { createHomework } from '../marking/marking-helper';
import { createOtherSchool } from '../papers/papers-helper';

describe('wall screens', () => {
  let handle: Awaited<ReturnType<typeof createTestApp>>;
  let url: string;
  const clock = fakeClock(new Date());
  const routes: RouteOptions[] = [];
  const sockets: Socket[] = [];
  let creator: string;
  let teacher: string;
  let director: string;
  let school: Awaited<ReturnType<typeof demoSchool>>;
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createTestApp({
      now: clock.now,
      config: { rateLimitPerMinute: 1000 },
      onRoute: (route) => routes.push(route),
    });
    await app().listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app().server.address() as AddressInfo).port}`;
    school = await demoSchool(app());
    creator = (await loginAs(app(), 'creator')).access_token;
    teacher = (await loginAs(app(), 'teacher')).access_token;
    director = (await loginAs(app(), 'director')).access_token;
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await handle?.close();
  });

  const pairing = async () =>
    screenPairingSchema.parse((await app().inject({ method: 'POST', url: '/api/screens/pairings' })).json().data);
  const collect = async (secret: string) =>
    pairingCollectResultSchema.parse(
      (await app().inject({ method: 'POST', url: '/api/screens/pairings/collect', payload: { secret } })).json().data,
    );
  const pair = (token: string, payload: ScreenCreate) =>
    app().inject({ method: 'POST', url: '/api/screens', headers: bearer(token), payload });
  const snapshot = (token?: string) =>
    app().inject({ method: 'GET', url: '/api/largescreen/snapshot', headers: token ? bearer(token) : {} });

  /** A paired screen of the demo school and its display token. */
  async function pairedScreen(input: Partial<ScreenCreate> = {}, as = creator) {
    const { code, secret } = await pairing();
    const response = await pair(as, { code, name: '走廊大屏', scopeKind: 'school', panels: ['pipeline', 'results'], ...input });
    expect(response.statusCode, response.body).toBe(200);
    const screen = screenSchema.parse(response.json().data);
    const collected = await collect(secret);
    expect(collected.status).toBe('paired');
    return { screen, token: collected.token! };
  }

  function socketWith(token?: string): Socket {
    const socket = connect(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: token ? { token } : {},
      reconnection: false,
    });
    sockets.push(socket);
    return socket;
  }
  const joined = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('server.joined', () => resolve());
      socket.once('connect_error', reject);
    });

  it('pairs a screen: the code waits, the creator types it, the screen collects its token once', async () => {
    const { code, secret, expiresAt } = await pairing();
    expect(code).toMatch(/^\d{6}$/);
    expect(Date.parse(expiresAt) - clock.now().getTime()).toBe(PAIRING_TTL_MS);
    expect(await collect(secret)).toEqual({ status: 'waiting', token: null });
    const response = await pair(creator, {
      code,
      name: '教学楼一层',
      scopeKind: 'schoolYear',
      schoolYearId: school.schoolYearId,
      panels: ['pipeline'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(screenSchema.parse(response.json().data)).toMatchObject({
      name: '教学楼一层',
      scopeLabel: '2026级 (初一)',
      connected: false,
    });
    const collected = await collect(secret);
    expect(collected.status).toBe('paired');
    expect(collected.token).toMatch(/^dsp_/);
    // Once only: the pairing is gone, and the code cannot pair a second screen.
    expect(await collect(secret)).toEqual({ status: 'expired', token: null });
    expect(failure(await pair(creator, { code, name: '再来一次', scopeKind: 'school', panels: ['pipeline'] }))).toEqual({
      status: 400,
      msg: SCREEN_MESSAGES.codeInvalid,
    });
    const view = largeScreenSnapshotSchema.parse((await snapshot(collected.token!)).json().data);
    expect(view).toMatchObject({ title: '教学楼一层', scopeLabel: '2026级 (初一)', panels: ['pipeline'], showNames: false });
    // The token is stored hashed.
    const rows = (await app().database.db.execute('select token_hash from screens')) as unknown as {
      rows: { token_hash: string }[];
    };
    expect(rows.rows.some((row) => row.token_hash === collected.token)).toBe(false);
    expect(rows.rows.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
  });

  it('lets a code expire after ten minutes', async () => {
    const { code, secret } = await pairing();
    clock.advanceSeconds(PAIRING_TTL_MS / 1000 + 1);
    expect(failure(await pair(creator, { code, name: '过期', scopeKind: 'school', panels: ['pipeline'] })).msg).toBe(
      SCREEN_MESSAGES.codeInvalid,
    );
    expect(await collect(secret)).toEqual({ status: 'expired', token: null });
  });

  it('lets admins pair any screen and grade directors only screens of their school year', async () => {
    const { code } = await pairing();
    expect(failure(await pair(teacher, { code, name: '教师', scopeKind: 'school', panels: ['pipeline'] })).status).toBe(403);
    expect(failure(await pair(director, { code, name: '主任', scopeKind: 'school', panels: ['pipeline'] })).status).toBe(403);
    const [otherYear] = (await app().database.db.select().from(classes)).filter(
      (c) => c.orgId === school.orgId && c.type === 1 && c.id !== school.schoolYearId,
    );
    expect(
      failure(
        await pair(director, { code, name: '主任', scopeKind: 'schoolYear', schoolYearId: otherYear!.id, panels: ['pipeline'] }),
      ).status,
    ).toBe(403);
    const mine = await pairedScreen({ scopeKind: 'class', classId: school.classIds[1]!, name: '初一(2)班' }, director);
    expect(mine.screen.scopeLabel).toBe('2026级 (初一) 初一(2)班');
    expect((await app().inject({ method: 'GET', url: '/api/screens', headers: bearer(teacher) })).statusCode).toBe(403);
    const listed = (await app().inject({ method: 'GET', url: '/api/screens', headers: bearer(director) })).json().data as {
      id: number;
    }[];
    expect(listed.map((s) => s.id)).toContain(mine.screen.id);
  });

  it('shows names only where the school year allows it (the analysis rule): never for 初中 by default, on request for 高中 of a 完全中学', async () => {
    const { code } = await pairing();
    expect(
      failure(
        await pair(creator, {
          code,
          name: '初一',
          scopeKind: 'schoolYear',
          schoolYearId: school.schoolYearId,
          panels: ['results'],
          showNames: true,
        }),
      ),
    ).toEqual({ status: 400, msg: SCREEN_MESSAGES.namesNotAllowed });
    expect(
      failure(await pair(creator, { code, name: '全校', scopeKind: 'school', panels: ['results'], showNames: true })).msg,
    ).toBe(SCREEN_MESSAGES.namesNotAllowed);
    // The school's type decides (analysis's ranksAllowed): a 完全中学's 高中 years allow names.
    await app().database.db.update(orgs).set({ schoolType: '完全中学' }).where(eq(orgs.id, school.orgId));
    const [senior] = await app()
      .database.db.insert(classes)
      .values({ orgId: school.orgId, type: 1, name: '2026级 (高一)', sort: 9 })
      .returning();
    const allowed = await pairedScreen({ scopeKind: 'schoolYear', schoolYearId: senior!.id, showNames: true, name: '高一' });
    expect(allowed.screen.showNames).toBe(true);
  });

  it('renames and re-scopes a screen, and answers another school 404', async () => {
    const { screen } = await pairedScreen();
    const updated = await app().inject({
      method: 'PUT',
      url: `/api/screens/${screen.id}`,
      headers: bearer(creator),
      payload: { name: '二楼', scopeKind: 'class', classId: school.classIds[0]!, panels: ['marking', 'pipeline'] },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(screenSchema.parse(updated.json().data)).toMatchObject({
      name: '二楼',
      scopeKind: 'class',
      panels: ['pipeline', 'marking'],
    });
    const other = await createOtherSchool(app());
    expect(failure(await other.call({ method: 'DELETE', url: `/api/screens/${screen.id}` })).status).toBe(403);
    const otherAdmin = await addMember(app(), 'otheradmin', other.orgId, { role: 'admin' });
    expect(otherAdmin).toBeGreaterThan(0);
    const otherToken = (await loginAs(app(), 'otheradmin')).access_token;
    expect(
      failure(await app().inject({ method: 'DELETE', url: `/api/screens/${screen.id}`, headers: bearer(otherToken) })).status,
    ).toBe(404);
  });

  it('revokes a screen: its socket is told and disconnected at once, and its token stops working', async () => {
    const { screen, token } = await pairedScreen();
    const socket = socketWith(token);
    await joined(socket);
    const told = new Promise<void>((resolve) => socket.once(SCREEN_REVOKED_EVENT, () => resolve()));
    const gone = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const response = await app().inject({ method: 'DELETE', url: `/api/screens/${screen.id}`, headers: bearer(creator) });
    expect(response.statusCode).toBe(200);
    await told;
    await expect(gone).resolves.toBe('io server disconnect');
    expect((await snapshot(token)).statusCode).toBe(401);
    // Coming back with the revoked token: told again and sent away.
    const again = socketWith(token);
    await new Promise<void>((resolve) => again.once(SCREEN_REVOKED_EVENT, () => resolve()));
  });

  it('opens nothing but the snapshot to a display token: every other route answers it as it answers nobody', async () => {
    const { token } = await pairedScreen();
    expect((await snapshot()).statusCode).toBe(401);
    expect((await snapshot(token)).statusCode).toBe(200);
    const seen = new Set<string>();
    for (const route of routes) {
      const methods = ([] as string[]).concat(route.method as string | string[]).filter((m) => m !== 'HEAD');
      for (const method of methods) {
        if (!route.url.startsWith('/api/') || route.url === '/api/largescreen/snapshot') continue;
        const path = route.url.replace(/:[A-Za-z]+/g, '1');
        const key = `${method} ${path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const inject = (headers: Record<string, string>) =>
          app().inject({
            method: method as 'GET',
            url: path,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: method === 'GET' || method === 'DELETE' ? undefined : '{}',
          });
        const anonymous = await inject({});
        const withToken = await inject(bearer(token));
        expect(withToken.statusCode, key).toBe(anonymous.statusCode);
        if (anonymous.statusCode === 401) expect(withToken.statusCode, key).toBe(401);
      }
    }
    expect(seen.size).toBeGreaterThan(60);
  });

  it('joins sockets only to the rooms their token may see: never another school, never another class', async () => {
    const emitted = await pairedScreen({ scopeKind: 'class', classId: school.classIds[0]!, name: '一班' });
    const otherClass = await pairedScreen({ scopeKind: 'class', classId: school.classIds[1]!, name: '二班' });
    const schoolWide = await pairedScreen({ scopeKind: 'school', name: '全校' });
    const outsiderAdmin = (await loginAs(app(), 'otheradmin')).access_token;
    const { code, secret } = await pairing();
    const otherOrgId = (await app().database.db.select().from(classes)).find(
      (c) => c.name === '2026级' && c.orgId !== school.orgId,
    )!.orgId;
    const outsiderScreen = await pair(outsiderAdmin, { code, name: '外校', scopeKind: 'school', panels: ['pipeline'] });
    expect(outsiderScreen.statusCode).toBe(200);
    const outsiderToken = (await collect(secret)).token!;

    const listeners = {
      classOne: socketWith(emitted.token),
      classTwo: socketWith(otherClass.token),
      school: socketWith(schoolWide.token),
      teacher: socketWith(teacher),
      outsiderUser: socketWith(outsiderAdmin),
      outsiderScreen: socketWith(outsiderToken),
      anonymous: socketWith(),
    };
    await Promise.all(
      Object.entries(listeners)
        .filter(([name]) => name !== 'anonymous')
        .map(([, s]) => joined(s)),
    );
    await new Promise<void>((resolve) =>
      listeners.anonymous.connected ? resolve() : listeners.anonymous.once('connect', () => resolve()),
    );
    const heard: Record<string, number> = {};
    for (const [name, socket] of Object.entries(listeners)) {
      heard[name] = 0;
      socket.on('test.event', () => (heard[name] = (heard[name] ?? 0) + 1));
      // Asking to join rooms does nothing: the server never joins a socket on request.
      for (const room of [
        `org:${school.orgId}`,
        `school:${school.orgId}`,
        `school:${school.orgId}:class:${school.classIds[0]}`,
      ]) {
        socket.emit('join', room);
        socket.emit('subscribe', { room });
      }
    }
    // A homework of the first class only.
    const { id: homeworkId, classId } = await createHomework(app(), school.orgId);
    expect(classId).toBe(school.classIds[0]);
    app().emitHomework(school.orgId, homeworkId, 'test.event', { homeworkId });
    app().emitHomework(otherOrgId, null, 'test.event', { homeworkId: null });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toEqual({
      classOne: 1,
      classTwo: 0,
      school: 1,
      teacher: 1,
      outsiderUser: 1,
      outsiderScreen: 1,
      anonymous: 0,
    });
  });
});
