/**
 * Realtime plugin: a socket.io server on the same HTTP server (path /socket.io) for live progress on the
 * large screen and scan station. Owns the socket server's lifetime and its rooms. Sockets never choose a
 * room: the server joins them from the token they hand over (`handshake.auth.token`):
 * - a teacher's access token: the room of the user's default school (the portal's), and the school,
 *   school-year or class rooms of what the permission module's visibleScope lets them see;
 * - a wall screen's display token: the rooms of the screen's scope and its own screen room (revoking the
 *   screen disconnects it there);
 * - none: the socket connects (a screen still pairing) and joins nothing.
 * A signed-in socket lives no longer than its token: it is disconnected when the token expires and when
 * its session is signed out or revoked (`app.disconnectSessions`, called by the token service). It does
 * not decide what is broadcast: services call `app.emitHomework`, which sends an event about a homework
 * to its school's rooms, its school year's and its classes' (screen-scope.ts names them).
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { DISPLAY_TOKEN_PREFIX, SCREEN_REVOKED_EVENT as SCREEN_REVOKED } from '../../src/shared/contract/large-screen';
import { APP_VERSION } from '../lib/version';
import { homeworkRooms, scopeOfScreen, scopeOfUser } from '../services/large-screen/screen-scope';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Server;
    /** Disconnects every socket signed in with a token of these login sessions (token families). */
    disconnectSessions: (familyIds: string[]) => void;
    /** Sends an event about a homework (null: not known yet) to the rooms of its school, school year and classes. */
    emitHomework: (orgId: number, homeworkId: number | null, event: string, payload: unknown) => void;
  }
}

/** setTimeout's longest delay; a later expiry is re-armed when that fires. */
const MAX_TIMER_MS = 2_147_483_647;

function sessionRoom(familyId: string): string {
  return `session:${familyId}`;
}

/** The room every signed-in socket of one school joins. */
export function orgRoom(orgId: number): string {
  return `org:${orgId}`;
}

async function realtimePlugin(app: FastifyInstance) {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  // Several instances behind one address: a broadcast from any instance reaches sockets on all of them.
  if (app.redis) {
    const publisher = app.redis.duplicate();
    const subscriber = app.redis.duplicate();
    io.adapter(createAdapter(publisher, subscriber));
    app.addHook('onClose', async () => {
      await Promise.all([publisher.quit(), subscriber.quit()]).catch(() => undefined);
    });
  }

  /** The session and rooms of a teacher's token, or null for a missing, bad or expired token. */
  async function sessionOfToken(token: string) {
    // The accounts plugin registers after this one; sockets connect only once the app is ready.
    const auth = await app.accounts.tokens.authenticate(token);
    if (!auth) return null;
    const user = await app.accounts.users.currentUser(auth.userId);
    const orgId = user.userGradeInfo.orgDefaultId;
    if (orgId === null) return null;
    const scope = await scopeOfUser(app.database.db, auth.userId).catch(() => null);
    return { ...auth, orgId, rooms: [orgRoom(orgId), sessionRoom(auth.familyId), ...(scope?.rooms ?? [])] };
  }

  io.on('connection', (socket) => {
    socket.emit('server.hello', { version: APP_VERSION });
    let expiry: NodeJS.Timeout | undefined;
    const disconnectAt = (expiresAt: Date) => {
      const delay = expiresAt.getTime() - Date.now();
      expiry = setTimeout(
        () => (delay > MAX_TIMER_MS ? disconnectAt(expiresAt) : socket.disconnect(true)),
        Math.max(0, Math.min(delay, MAX_TIMER_MS)),
      );
      expiry.unref();
    };
    socket.on('disconnect', () => clearTimeout(expiry));
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return;
    if (token.startsWith(DISPLAY_TOKEN_PREFIX)) {
      app.screens.service.authenticate(token).then(
        async (screen) => {
          if (screen === null) {
            // Revoked (or never paired here): the screen goes back to its pairing code.
            socket.emit(SCREEN_REVOKED, {});
            socket.disconnect(true);
            return;
          }
          const scope = await scopeOfScreen(app.database.db, screen);
          if (socket.disconnected) return;
          void socket.join(scope.rooms);
          socket.emit('server.joined', { orgId: screen.orgId, screenId: screen.id });
        },
        (error: unknown) => app.log.warn({ err: error }, 'realtime display handshake failed'),
      );
      return;
    }
    sessionOfToken(token).then(
      (session) => {
        if (session === null || socket.disconnected) return;
        void socket.join(session.rooms);
        disconnectAt(session.expiresAt);
        socket.emit('server.joined', { orgId: session.orgId });
      },
      (error: unknown) => app.log.warn({ err: error }, 'realtime handshake failed'),
    );
  });

  app.decorate('realtime', io);

  // The portal's sockets (the school's room) hear at once, as before. The scoped rooms (screens) hear once
  // the homework's school year and classes are looked up, minus the sockets already in the school's room
  // (nobody hears an event twice); one school's events go out in the order they were raised, so a later
  // progress count never overtakes an earlier one.
  const queues = new Map<number, Promise<void>>();
  app.decorate('emitHomework', (orgId: number, homeworkId: number | null, event: string, payload: unknown) => {
    io.to(orgRoom(orgId)).emit(event, payload);
    const next = (queues.get(orgId) ?? Promise.resolve())
      .then(() => homeworkRooms(app.database.db, orgId, homeworkId))
      .then(
        (rooms) => {
          io.except(orgRoom(orgId)).to(rooms).emit(event, payload);
        },
        (error: unknown) => app.log.warn({ err: error }, 'realtime rooms of a homework not found'),
      );
    queues.set(orgId, next);
    void next.then(() => {
      if (queues.get(orgId) === next) queues.delete(orgId);
    });
  });
  app.decorate('disconnectSessions', (familyIds: string[]) => {
    if (familyIds.length > 0) io.in(familyIds.map(sessionRoom)).disconnectSockets(true);
  });
  app.addHook('preClose', async () => {
    // This instance's sockets only: through the Redis adapter a plain disconnectSockets would cut every
    // instance's screens whenever one instance stops.
    io.local.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => {
      io.close(() => resolve());
    });
  });
}

export default fp(realtimePlugin, { name: 'realtime', dependencies: ['redis', 'db'] });
