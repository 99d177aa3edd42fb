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
  /** The demo homework drawn, scanned and recognised in the background after start (off for the e2e server). */
  DEMO_SCANS: z
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
  FILING_NUMBER: z.string().trim().max(60).default('京ICP备2026000001号-1'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  LOGIN_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  LOGIN_ACCOUNT_LOCK_MINUTES: z.coerce.number().int().min(1).default(60),
  LOGIN_PER_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  REFRESH_PER_SESSION_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  DEV_OUTBOX: z
    .enum(['true', 'false', ''])
    .default('false')
    .transform((value) => value === 'true'),
  SMS_PROVIDER: z.enum(['', 'log', 'tencent']).default(''),
  SMS_SECRET_ID: z.string().trim().default(''),
  SMS_SECRET_KEY: z.string().trim().default(''),
  SMS_SDK_APP_ID: z.string().trim().default(''),
  SMS_SIGN_NAME: z.string().trim().default(''),
  SMS_TEMPLATE_ID: z.string().trim().default(''),
  SMS_REGION: z.string().trim().default(''),
  STORAGE: z.enum(['local', 's3'], { error: 'STORAGE 只能是 local 或 s3 / must be local or s3' }).default('local'),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().trim().default(''),
  S3_REGION: z.string().trim().default(''),
  S3_ACCESS_KEY_ID: z.string().trim().default(''),
  S3_SECRET_ACCESS_KEY: z.string().trim().default(''),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', ''], { error: 'S3_FORCE_PATH_STYLE 只能是 true 或 false / must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  S3_PREFIX: z
    .string()
    .trim()
    .default('')
    .refine(
      (value) => value === '' || /^([A-Za-z0-9][A-Za-z0-9._-]*\/)*[A-Za-z0-9][A-Za-z0-9._-]*\/?$/.test(value),
      'S3_PREFIX 须为 a/b 形式的路径 / must be a relative path such as smart-homework/',
    )
    .transform((value) => (value === '' || value.endsWith('/') ? value : `${value}/`)),
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
  demoScans: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Where stored images are served from; a path (the storage's files/, served by this server) or an absolute URL. */
  imageBaseUrl: string;
  websocketBaseUrl: string;
  captchaSiteKey: string;
  messagingAppId: string;
  /** Dynamic Web TWAIN's product key, handed to scan stations in GET /api/config. */
  dwtProductKey: string;
  /** The site's filing number (备案号) in the footer, where the user's school sets none. */
  filingNumber: string;
  /** Requests per minute per IP on each of the token, captcha and SMS endpoints. */
  rateLimitPerMinute: number;
  /** Wrong passwords within LOGIN_LOCK_MINUTES that lock an account for LOGIN_LOCK_MINUTES. */
  loginMaxFailures: number;
  loginLockMinutes: number;
  /** Wrong passwords for one account from all addresses together that lock it for every address. */
  loginAccountMaxFailures: number;
  loginAccountLockMinutes: number;
  /** Password and SMS logins per minute for one account (the per-IP limit is RATE_LIMIT_PER_MINUTE). */
  loginPerAccountPerMinute: number;
  /** Refreshes per minute for one login session (token family). */
  refreshPerSessionPerMinute: number;
  /** The developer outbox (GET /api/dev/outbox, loopback only); never on in production. */
  devOutbox: boolean;
  sms: SmsConfig;
  /** Where uploaded files are kept: the local folder DATA_DIR (default) or an S3-compatible bucket. */
  storage: StorageConfig;
};

export type S3StorageConfig = {
  /** An S3-compatible service's address; absent: AWS S3 of `region`. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Both empty: the SDK's own credential chain (environment, instance role...). */
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (http://host/bucket/key) rather than the host name; most self-hosted services need it. */
  forcePathStyle: boolean;
  /** Prepended to every key ('' or ending in /), so one bucket can hold several installations. */
  prefix: string;
};

export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3StorageConfig);

/** How SMS codes are delivered: '' chooses the log outside production and nothing in production. */
export type SmsConfig = {
  provider: '' | 'log' | 'tencent';
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  region: string;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const value = parsed.data;
  if (value.SMS_PROVIDER === 'tencent') {
    const missing = ['SMS_SECRET_ID', 'SMS_SECRET_KEY', 'SMS_SDK_APP_ID', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_ID'].filter(
      (name) => value[name as keyof typeof value] === '',
    );
    if (missing.length > 0) {
      throw new ConfigError(`Invalid configuration:\n  SMS_PROVIDER=tencent needs ${missing.join(', ')}`);
    }
  }
  const storage = storageConfig(value);
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
    demoScans: value.DEMO_SCANS,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: value.REFRESH_TOKEN_TTL_SECONDS,
    imageBaseUrl: value.IMAGE_BASE_URL,
    websocketBaseUrl: value.WEBSOCKET_BASE_URL,
    captchaSiteKey: value.CAPTCHA_SITE_KEY,
    messagingAppId: value.MESSAGING_APP_ID,
    dwtProductKey: value.DWT_PRODUCT_KEY,
    filingNumber: value.FILING_NUMBER,
    rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
    loginMaxFailures: value.LOGIN_MAX_FAILURES,
    loginLockMinutes: value.LOGIN_LOCK_MINUTES,
    loginAccountMaxFailures: value.LOGIN_ACCOUNT_MAX_FAILURES,
    loginAccountLockMinutes: value.LOGIN_ACCOUNT_LOCK_MINUTES,
    loginPerAccountPerMinute: value.LOGIN_PER_ACCOUNT_PER_MINUTE,
    refreshPerSessionPerMinute: value.REFRESH_PER_SESSION_PER_MINUTE,
    devOutbox: value.DEV_OUTBOX && value.NODE_ENV !== 'production',
    sms: {
      provider: value.SMS_PROVIDER,
      secretId: value.SMS_SECRET_ID,
      secretKey: value.SMS_SECRET_KEY,
      sdkAppId: value.SMS_SDK_APP_ID,
      signName: value.SMS_SIGN_NAME,
      templateId: value.SMS_TEMPLATE_ID,
      region: value.SMS_REGION,
    },
    storage,
  };
}

function storageConfig(value: z.infer<typeof configSchema>): StorageConfig {
  if (value.STORAGE === 'local') return { kind: 'local' };
  const problems: string[] = [];
  if (value.S3_BUCKET === '') problems.push('STORAGE=s3 需要 S3_BUCKET（存储桶名称）/ needs S3_BUCKET, the bucket name');
  if (value.S3_REGION === '' && !value.S3_ENDPOINT) {
    problems.push(
      'STORAGE=s3 需要 S3_REGION，或 S3_ENDPOINT 指向兼容服务 / needs S3_REGION, or S3_ENDPOINT for an S3-compatible service',
    );
  }
  if ((value.S3_ACCESS_KEY_ID === '') !== (value.S3_SECRET_ACCESS_KEY === '')) {
    problems.push(
      'S3_ACCESS_KEY_ID 与 S3_SECRET_ACCESS_KEY 须同时设置 / set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    kind: 's3',
    endpoint: value.S3_ENDPOINT,
    bucket: value.S3_BUCKET,
    // Self-hosted services ignore the region but the signature needs one.
    region: value.S3_REGION || 'us-east-1',
    accessKeyId: value.S3_ACCESS_KEY_ID,
    secretAccessKey: value.S3_SECRET_ACCESS_KEY,
    forcePathStyle: value.S3_FORCE_PATH_STYLE,
    prefix: value.S3_PREFIX,
  };
}
