/**
 * Builds the Fastify app from its plugins. It does not listen: main.ts runs it, tests inject into it.
 */
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { Config } from './config';
import type { DatabaseOptions } from './db/client';
import { zodValidatorCompiler } from './lib/api-error';
import { type Clock, systemClock } from './lib/clock';
import apiDocsPlugin from './plugins/api-docs';
import accountsPlugin from './plugins/accounts';
import authPlugin from './plugins/auth';
import backupPlugin from './plugins/backup';
import clientPlugin from './plugins/client';
import scannerResourcesPlugin from './plugins/scanner-resources';
import dbPlugin from './plugins/db';
import envelopePlugin, { responseSerializerCompiler } from './plugins/envelope';
import filesPlugin from './plugins/files';
import markingPlugin from './plugins/marking';
import demoScansPlugin from './plugins/demo-scans';
import orgPlugin from './plugins/org';
import papersPlugin from './plugins/papers';
import realtimePlugin from './plugins/realtime';
import redisPlugin from './plugins/redis';
import scanPlugin from './plugins/scan';
import screensPlugin from './plugins/screens';
import analysisRoutes from './routes/analysis/analysis.routes';
import rehearseRoutes from './routes/rehearse/rehearse.routes';
import securityHeadersPlugin from './plugins/security-headers';
import captchaRoutes from './routes/auth/captcha.routes';
import smsRoutes from './routes/auth/sms.routes';
import devOutboxRoutes from './routes/dev/dev-outbox.routes';
import healthRoutes from './routes/health/health.routes';
import markingRoutes from './routes/marking/marking.routes';
import reviewRoutes from './routes/marking/review.routes';
import scoresRoutes from './routes/marking/scores.routes';
import oauthRoutes from './routes/oauth/oauth.routes';
import invitationRoutes from './routes/org/invitation.routes';
import joinRequestRoutes from './routes/org/join-request.routes';
import schoolRoutes from './routes/org/school.routes';
import homeworkRoutes from './routes/papers/homework.routes';
import rehearseSetRoutes from './routes/rehearse-sets/sets.routes';
import paperRoutes from './routes/papers/paper.routes';
import questionBankRoutes from './routes/papers/question-bank.routes';
import questionImageRoutes from './routes/papers/question-image.routes';
import questionSetRoutes from './routes/papers/question-set.routes';
import studentRoutes from './routes/papers/student.routes';
import type { RateLimitedRouteOptions } from './routes/route-options';
import scanRoutes from './routes/scan/scan.routes';
import bindingRoutes from './routes/binding/binding.routes';
import screenRoutes from './routes/large-screen/screen.routes';
import classRoutes from './routes/system/class.routes';
import configRoutes from './routes/system/config.routes';
import avatarRoutes from './routes/user/avatar.routes';
import userRoutes from './routes/user/user.routes';
import type { SmsSender } from './services/auth/sms-sender';

export type AppOptions = {
  config: Pick<
    Config,
    | 'clientDir'
    | 'seedDemo'
    | 'demoScans'
    | 'nodeEnv'
    | 'dataDir'
    | 'accessTokenTtlSeconds'
    | 'refreshTokenTtlSeconds'
    | 'imageBaseUrl'
    | 'websocketBaseUrl'
    | 'captchaSiteKey'
    | 'messagingAppId'
    | 'dwtProductKey'
    | 'filingNumber'
    | 'rateLimitPerMinute'
    | 'loginMaxFailures'
    | 'loginLockMinutes'
    | 'redisUrl'
    | 'loginAccountMaxFailures'
    | 'loginAccountLockMinutes'
    | 'loginPerAccountPerMinute'
    | 'refreshPerSessionPerMinute'
    | 'devOutbox'
    | 'sms'
    | 'storage'
  >;
  database: DatabaseOptions;
  logger?: FastifyServerOptions['logger'];
  /** The clock every expiry is measured against; tests move it instead of sleeping. */
  now?: Clock;
  /** Delivers SMS codes; by default the configured provider (SMS_PROVIDER), or the log outside production. */
  smsSender?: SmsSender | null;
  /** Sees every route as it is added (the API contract test walks them). */
  onRoute?: (route: RouteOptions) => void;
};

export function databaseOptionsFor(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseOptions {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: `${config.dataDir}/pgdata` };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    // Requests may carry scanned pages; handlers that accept more raise this per route.
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Opening PGlite and migrating can take longer than Fastify's 10 s on a busy machine (parallel tests).
    pluginTimeout: 120_000,
    forceCloseConnections: 'idle',
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Routes declare their params, querystring, body and response with the zod contract schemas.
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(
    responseSerializerCompiler({
      strict: config.nodeEnv === 'test',
      onMismatch: (route, issues) => app.log.error({ route, issues }, 'answer outside its response schema'),
    }),
  );

  await app.register(envelopePlugin);
  // Answers over 1 KB travel compressed (Brotli at a quick level, or gzip); the built client is served
  // from its precompressed copies (see plugins/client.ts), which this leaves alone.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(securityHeadersPlugin, config);
  await app.register(dbPlugin, { database: options.database, seedDemo: config.seedDemo });
  await app.register(formbody);
  await app.register(multipart);
  await app.register(redisPlugin, { url: config.redisUrl });
  // With Redis, login and SMS limits count across all instances.
  await app.register(rateLimit, { global: false, ...(app.redis ? { redis: app.redis } : {}) });
  await app.register(realtimePlugin);
  await app.register(filesPlugin, { dataDir: config.dataDir, imageBaseUrl: config.imageBaseUrl, storage: config.storage });
  await app.register(accountsPlugin, { config, now: options.now ?? systemClock, smsSender: options.smsSender });
  await app.register(authPlugin);
  await app.register(papersPlugin);
  await app.register(scanPlugin);
  await app.register(markingPlugin);
  await app.register(demoScansPlugin, { enabled: config.seedDemo && config.demoScans && config.nodeEnv !== 'test' });
  await app.register(backupPlugin, { dataDir: config.dataDir });
  await app.register(orgPlugin, { now: options.now ?? systemClock });
  await app.register(screensPlugin, { now: options.now ?? systemClock });
  await app.register(apiDocsPlugin);

  const limited: RateLimitedRouteOptions = { rateLimit: { max: config.rateLimitPerMinute, timeWindow: 60_000 } };
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(configRoutes, { config });
      await api.register(oauthRoutes, {
        ...limited,
        perAccountPerMinute: config.loginPerAccountPerMinute,
        perSessionPerMinute: config.refreshPerSessionPerMinute,
      });
      await api.register(captchaRoutes, limited);
      await api.register(smsRoutes, limited);
      await api.register(userRoutes, limited);
      await api.register(avatarRoutes);
      await api.register(classRoutes);
      await api.register(questionBankRoutes);
      await api.register(questionImageRoutes);
      await api.register(paperRoutes, { imageBaseUrl: config.imageBaseUrl });
      await api.register(questionSetRoutes);
      await api.register(homeworkRoutes);
      await api.register(studentRoutes);
      await api.register(scanRoutes);
      await api.register(markingRoutes);
      await api.register(reviewRoutes);
      await api.register(scoresRoutes);
      if (config.devOutbox && config.nodeEnv !== 'production') await api.register(devOutboxRoutes);
      await api.register(analysisRoutes);
      await api.register(rehearseRoutes);
      await api.register(schoolRoutes);
      await api.register(invitationRoutes, limited);
      await api.register(rehearseSetRoutes);
      await api.register(screenRoutes, limited);
      await api.register(joinRequestRoutes, limited);
      await api.register(bindingRoutes);
    },
    { prefix: '/api' },
  );

  await app.register(scannerResourcesPlugin);
  await app.register(clientPlugin, { clientDir: config.clientDir });
  return app;
}
