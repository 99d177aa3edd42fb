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
import { createLogSmsSender, type SmsSender } from '../services/auth/sms-sender';
import { createSmsService } from '../services/auth/sms.service';
import { createTokenService } from '../services/auth/token.service';
import { createClassService } from '../services/system/class.service';
import { createAvatarService } from '../services/user/avatar.service';
import { createUserService } from '../services/user/user.service';

export type AccountsPluginOptions = {
  config: Pick<Config, 'nodeEnv' | 'accessTokenTtlSeconds' | 'refreshTokenTtlSeconds' | 'loginMaxFailures' | 'loginLockMinutes'>;
  now: Clock;
  smsSender?: SmsSender;
};

function buildAccounts(app: FastifyInstance, { config, now, smsSender }: AccountsPluginOptions) {
  const db = app.database.db;
  const outbox = createDevOutbox({ enabled: config.nodeEnv !== 'production' });
  const tokens = createTokenService({
    db,
    now,
    accessTokenTtlSeconds: config.accessTokenTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
  });
  const captchas = createCaptchaService({ db, now, outbox });
  const sms = createSmsService({ db, now, outbox, sender: smsSender ?? createLogSmsSender(app.log) });
  const login = createLoginService({
    db,
    now,
    captchas,
    sms,
    lockout: { maxFailures: config.loginMaxFailures, lockMinutes: config.loginLockMinutes },
  });
  const users = createUserService({ db, sms, tokens });
  const avatars = createAvatarService({ db, filesDir: app.filesDir });
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

export default fp(accountsPlugin, { name: 'accounts', dependencies: ['db', 'files'] });
