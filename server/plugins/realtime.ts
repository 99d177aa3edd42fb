/**
 * Realtime plugin: a socket.io server on the same HTTP server (path /socket.io) for live progress on the
 * large screen and scan station. Owns the socket server's lifetime; it does not decide what is broadcast
 * (services call `app.realtime.emit`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server } from 'socket.io';
import { APP_VERSION } from '../lib/version';

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Server;
  }
}

async function realtimePlugin(app: FastifyInstance) {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  io.on('connection', (socket) => {
    socket.emit('server.hello', { version: APP_VERSION });
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

export default fp(realtimePlugin, { name: 'realtime' });
