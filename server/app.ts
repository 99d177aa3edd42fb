/**
 * Builds the Fastify app from its plugins. It does not listen: main.ts runs it, tests inject into it.
 */
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import type { DatabaseOptions } from './db/client';
import clientPlugin from './plugins/client';
import dbPlugin from './plugins/db';
import envelopePlugin from './plugins/envelope';
import realtimePlugin from './plugins/realtime';
import healthRoutes from './routes/health/health.routes';

export type AppOptions = {
  config: Pick<Config, 'clientDir' | 'seedDemo' | 'nodeEnv'>;
  database: DatabaseOptions;
  logger?: FastifyServerOptions['logger'];
};

export function databaseOptionsFor(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: `${config.dataDir}/pgdata` };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    // Requests may carry scanned pages; handlers that accept more raise this per route.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  await app.register(envelopePlugin);
  await app.register(dbPlugin, { database: options.database, seedDemo: options.config.seedDemo });
  await app.register(formbody);
  await app.register(realtimePlugin);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(clientPlugin, { clientDir: options.config.clientDir });
  return app;
}
