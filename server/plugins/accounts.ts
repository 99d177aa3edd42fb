/**
 * Accounts plugin: builds the account services (tokens, captchas, SMS codes, logins, users, avatars, the
 * developer outbox, the school structure) over the database and the injected clock, and decorates
 * `app.accounts` with them. Owns their wiring only; the logic lives in services/.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { createCaptchaService } from '../services/auth/captcha.service';
import { createDevOutbox } from '../services/auth/dev-outbox';
import { createLoginService } from '../services/auth/login.service';
import { chooseSmsSender, type SmsSender } from '../services/auth/sms-sender';
import { createSmsService } from '../services/auth/sms.service';
import { createTokenService } from '../services/auth/token.service';
import { createClassService } from '../services/system/class.service';
import { createAvatarService } from '../services/user/avatar.service';
import { createUserService } from '../services/user/user.service';

export type AccountsPluginOptions = {
  config: Pick<
    Config,
    | 'nodeEnv'
    | 'accessTokenTtlSeconds'
    | 'refreshTokenTtlSeconds'
    | 'loginMaxFailures'
    | 'loginLockMinutes'
    | 'loginAccountMaxFailures'
    | 'loginAccountLockMinutes'
    | 'devOutbox'
    | 'sms'
  >;
  now: Clock;
  /** Overrides the configured SMS delivery (tests); null means none. */
  smsSender?: SmsSender | null;
};

function buildAccounts(app: FastifyInstance, { config, now, smsSender }: AccountsPluginOptions) {
  const db = app.database.db;
  const outbox = createDevOutbox({ enabled: config.devOutbox && config.nodeEnv !== 'production' });
  if (outbox.enabled) {
    app.log.warn('DEV_OUTBOX is on: SMS codes and captcha answers are readable at /api/dev/outbox from this machine');
  }
  const tokens = createTokenService({
    db,
    now,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    onRevoked: (familyIds) => app.disconnectSessions(familyIds),
  });
  // Outside production the captcha answer is logged too, so a demo can be used without squinting.
  const revealCaptcha = config.nodeEnv !== 'production' ? (text: string) => app.log.info(`[captcha] ${text}`) : undefined;
  const captchas = createCaptchaService({ db, now, outbox, revealCaptcha });
  const sender = smsSender === undefined ? chooseSmsSender(config.sms, config.nodeEnv, app.log) : smsSender;
  if (!sender)
    app.log.warn('no SMS provider configured (SMS_PROVIDER): SMS login, registration and password reset are unavailable');
  const sms = createSmsService({
    db,
    now,
    outbox,
    sender,
    log: (error) => app.log.error({ err: error }, 'SMS delivery failed'),
  });
  const login = createLoginService({
    db,
    now,
    captchas,
    sms,
    lockout: {
      maxFailures: config.loginMaxFailures,
      lockMinutes: config.loginLockMinutes,
      accountMaxFailures: config.loginAccountMaxFailures,
      accountLockMinutes: config.loginAccountLockMinutes,
    },
  });
  const users = createUserService({ db, sms, tokens });
  const avatars = createAvatarService({ db, storage: app.storage });
  const classes = createClassService({ db, users });
  return { outbox, tokens, captchas, sms, login, users, avatars, classes };
}

declare module 'fastify' {
  interface FastifyInstance {
    accounts: ReturnType<typeof buildAccounts>;
  }
}

async function accountsPlugin(app: FastifyInstance, options: AccountsPluginOptions) {
  app.decorate('accounts', buildAccounts(app, options));
}

export default fp(accountsPlugin, { name: 'accounts', dependencies: ['db', 'files', 'realtime'] });
