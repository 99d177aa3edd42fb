/** Prints a Redis URL for the tests when a local Redis answers, and nothing otherwise. */
import { Redis } from 'ioredis';

const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 0, retryStrategy: () => null });
redis.on('error', () => undefined);
try {
  await redis.connect();
  if ((await redis.ping()) === 'PONG') console.log(url);
} catch {
  // No Redis here: the multi-instance tests are skipped.
} finally {
  redis.disconnect();
}
