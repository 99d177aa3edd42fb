/**
 * Realtime plugin: a socket.io server on the same HTTP server (path /socket.io) for live progress on the
 * large screen and scan station. Owns the socket server's lifetime and its rooms: a socket that hands an
 * access token (`handshake.auth.token`) joins the room of the user's default school; one without still
 * connects (the large screen) and joins none. It does not decide what is broadcast (services call
 * `app.realtime.to(orgRoom(orgId)).emit`).
 */
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { APP_VERSION } from '../lib/version';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Server;
  }
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

  /** The default school of the token's user, or null for a missing, bad or expired token. */
  async function orgOfToken(token: unknown): Promise<number | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 256) return null;
    // The accounts plugin registers after this one; sockets connect only once the app is ready.
    const auth = await app.accounts.tokens.authenticate(token);
    if (!auth) return null;
    const user = await app.accounts.users.currentUser(auth.userId);
    return user.userGradeInfo.orgDefaultId;
  }

  io.on('connection', (socket) => {
    socket.emit('server.hello', { version: APP_VERSION });
    orgOfToken((socket.handshake.auth as { token?: unknown } | undefined)?.token).then(
      (orgId) => {
        if (orgId === null || socket.disconnected) return;
        void socket.join(orgRoom(orgId));
        socket.emit('server.joined', { orgId });
      },
      (error: unknown) => app.log.warn({ err: error }, 'realtime handshake failed'),
    );
  });
  app.decorate('realtime', io);
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
