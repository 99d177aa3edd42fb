/**
 * Realtime plugin: a socket.io server on the same HTTP server (path /socket.io) for live progress on the
 * large screen and scan station. Owns the socket server's lifetime and its rooms: a socket that hands an
 * access token (`handshake.auth.token`) joins the room of the user's default school; one without still
 * connects (the large screen) and joins none. A signed-in socket lives no longer than its token: it is
 * disconnected when the token expires and when its session is signed out or revoked
 * (`app.disconnectSessions`, called by the token service). It does not decide what is broadcast
 * (services call `app.realtime.to(orgRoom(orgId)).emit`).
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { APP_VERSION } from '../lib/version';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Server;
    /** Disconnects every socket signed in with a token of these login sessions (token families). */
    disconnectSessions: (familyIds: string[]) => void;
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

  /** The session and default school of the token's user, or null for a missing, bad or expired token. */
  async function sessionOfToken(token: unknown) {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return null;
    // The accounts plugin registers after this one; sockets connect only once the app is ready.
    const auth = await app.accounts.tokens.authenticate(token);
    if (!auth) return null;
    const user = await app.accounts.users.currentUser(auth.userId);
    return { ...auth, orgId: user.userGradeInfo.orgDefaultId };
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
    sessionOfToken((socket.handshake.auth as { token?: unknown } | undefined)?.token).then(
      (session) => {
        if (session === null || session.orgId === null || socket.disconnected) return;
        void socket.join([orgRoom(session.orgId), sessionRoom(session.familyId)]);
        disconnectAt(session.expiresAt);
        socket.emit('server.joined', { orgId: session.orgId });
      },
      (error: unknown) => app.log.warn({ err: error }, 'realtime handshake failed'),
    );
  });
  app.decorate('realtime', io);
  app.decorate('disconnectSessions', (familyIds: string[]) => {
    if (familyIds.length > 0) io.in(familyIds.map(sessionRoom)).disconnectSockets(true);
  });
  app.addHook('preClose', async () => {
    io.disconnectSockets(true);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => {
      io.close(() => resolve());
    });
  });
}

export default fp(realtimePlugin, { name: 'realtime', dependencies: ['redis'] });
