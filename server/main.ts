/**
 * Runs the server: reads the configuration, builds the app, listens, and shuts down cleanly on
 * SIGINT/SIGTERM (stops accepting, drains in-flight requests, closes sockets and the database).
 * `prepare` sees the app before it listens (a bench's instrumentation).
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, databaseOptionsFor } from './app';
import { ConfigError, loadConfig } from './config';

export async function main(prepare?: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp({
    config,
    database: databaseOptionsFor(config),
    logger: { level: config.logLevel },
  });
  prepare?.(app);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`\n  智慧作业 is running at http://${shownHost}:${port}/  (database: ${app.database.kind})\n`);
  return app;
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
