/**
 * Screens plugin: wall-screen pairing and management (services/large-screen/screen.service.ts) and the
 * display's snapshot (snapshot.service.ts), decorated as `app.screens`. Owns their wiring to realtime: a
 * re-scoped screen's sockets are told to reconnect, a revoked screen's are told and disconnected at once
 * (on every instance, through the socket.io adapter).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SCREEN_REVOKED_EVENT, SCREEN_UPDATED_EVENT } from '../../src/shared/contract/large-screen';
import type { Clock } from '../lib/clock';
import { screenRoom } from '../services/large-screen/screen-scope';
import { createScreenService } from '../services/large-screen/screen.service';
import { createSnapshotService } from '../services/large-screen/snapshot.service';

export type ScreensPluginOptions = { now: Clock };

function buildScreens(app: FastifyInstance, { now }: ScreensPluginOptions) {
  const db = app.database.db;
  return {
    service: createScreenService({
      db,
      now,
      events: {
        updated: (screenId) => {
          app.realtime.to(screenRoom(screenId)).emit(SCREEN_UPDATED_EVENT, { screenId });
          app.realtime.in(screenRoom(screenId)).disconnectSockets(true);
        },
        revoked: (screenId) => {
          app.realtime.to(screenRoom(screenId)).emit(SCREEN_REVOKED_EVENT, { screenId });
          app.realtime.in(screenRoom(screenId)).disconnectSockets(true);
        },
      },
    }),
    snapshots: createSnapshotService({ db, now }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    screens: ReturnType<typeof buildScreens>;
  }
}

async function screensPlugin(app: FastifyInstance, options: ScreensPluginOptions) {
  app.decorate('screens', buildScreens(app, options));
}

export default fp(screensPlugin, { name: 'screens', dependencies: ['db', 'realtime'] });
