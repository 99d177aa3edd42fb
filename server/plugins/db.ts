/**
 * Database plugin: opens PGlite or PostgreSQL (see db/client.ts), runs migrations, seeds the demo school
 * when asked, and closes the connection when the server closes. Decorates `app.database`.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openDatabase, type Database, type DatabaseOptions } from '../db/client';
import { seedDemo } from '../db/seed';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

export type DbPluginOptions = { database: DatabaseOptions; seedDemo: boolean };

async function dbPlugin(app: FastifyInstance, options: DbPluginOptions) {
  const database = await openDatabase(options.database);
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    await database.close();
  });
  if (options.seedDemo && (await seedDemo(database.db))) {
    app.log.info('seeded the demo school');
  }
}

export default fp(dbPlugin, { name: 'db' });
