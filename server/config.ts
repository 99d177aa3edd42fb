/**
 * The one place the server reads its configuration. Every value comes from the environment, is
 * validated here with zod, and is documented in README.md ("Configuration"). Nothing else reads
 * process.env.
 */
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .pipe(z.url().optional())
  .optional();

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(7200),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(2_592_000),
  IMAGE_BASE_URL: z
    .string()
    .trim()
    .default('/files/')
    .refine((value) => value.startsWith('/') || /^https?:\/\//.test(value), 'must be a path starting with / or an http(s) URL')
    .transform((value) => (value.endsWith('/') ? value : `${value}/`)),
  WEBSOCKET_BASE_URL: z.string().trim().default(''),
  CAPTCHA_SITE_KEY: z.string().trim().default(''),
  MESSAGING_APP_ID: z.string().trim().default(''),
  DWT_PRODUCT_KEY: z.string().trim().default(''),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  clientDir: string;
  logLevel: string;
  seedDemo: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Where stored images are served from; a path (served from DATA_DIR/files) or an absolute URL. */
  imageBaseUrl: string;
  websocketBaseUrl: string;
  captchaSiteKey: string;
  messagingAppId: string;
  /** Dynamic Web TWAIN's product key, handed to scan stations in GET /api/config. */
  dwtProductKey: string;
  /** Requests per minute per IP on each of the token, captcha and SMS endpoints. */
  rateLimitPerMinute: number;
  /** Wrong passwords within LOGIN_LOCK_MINUTES that lock an account for LOGIN_LOCK_MINUTES. */
  loginMaxFailures: number;
  loginLockMinutes: number;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const value = parsed.data;
  return {
    nodeEnv: value.NODE_ENV,
    port: value.PORT,
    host: value.HOST,
    dataDir: path.resolve(value.DATA_DIR),
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    clientDir: path.resolve(value.CLIENT_DIR),
    logLevel: value.LOG_LEVEL,
    seedDemo: value.SEED_DEMO,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: value.REFRESH_TOKEN_TTL_SECONDS,
    imageBaseUrl: value.IMAGE_BASE_URL,
    websocketBaseUrl: value.WEBSOCKET_BASE_URL,
    captchaSiteKey: value.CAPTCHA_SITE_KEY,
    messagingAppId: value.MESSAGING_APP_ID,
    dwtProductKey: value.DWT_PRODUCT_KEY,
    rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
    loginMaxFailures: value.LOGIN_MAX_FAILURES,
    loginLockMinutes: value.LOGIN_LOCK_MINUTES,
  };
}
