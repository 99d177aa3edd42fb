/**
 * Redis plugin: when REDIS_URL is set, one shared connection (`app.redis`) that lets several instances
 * of the server act as one: socket.io broadcasts and rate-limit counters go through it. Without it
 * `app.redis` is null and each instance keeps that state in memory, which is right for a single one.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | null;
  }
}

export type RedisPluginOptions = { url: string | undefined };

async function redisPlugin(app: FastifyInstance, options: RedisPluginOptions) {
  if (!options.url) {
    app.decorate('redis', null);
    return;
  }
  const redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', (error) => app.log.warn({ err: error }, 'redis connection problem'));
  await redis.connect();
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
}

export default fp(redisPlugin, { name: 'redis' });
