import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseOptionsFor } from '../../server/app';
import { ConfigError, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('rejects a bad port and a bad URL, naming both', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url' });
    } catch (error) {
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('DATABASE_URL');
    }
  });

  it('chooses PGlite in DATA_DIR without DATABASE_URL and PostgreSQL with it', () => {
    expect(databaseOptionsFor(loadConfig({ DATA_DIR: '/tmp/x' }))).toEqual({ kind: 'pglite', dataDir: '/tmp/x/pgdata' });
    expect(databaseOptionsFor(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app' }))).toEqual({
      kind: 'postgres',
      url: 'postgres://postgres@127.0.0.1:5432/app',
    });
  });

  it('has the documented defaults for sessions, images, the client config and limits', () => {
    expect(loadConfig({})).toMatchObject({
      accessTokenTtlSeconds: 7200,
      refreshTokenTtlSeconds: 2_592_000,
      imageBaseUrl: '/files/',
      websocketBaseUrl: '',
      captchaSiteKey: '',
      messagingAppId: '',
      rateLimitPerMinute: 120,
      loginMaxFailures: 5,
      loginLockMinutes: 15,
    });
  });

  it('adds the trailing slash to IMAGE_BASE_URL and rejects one that is neither a path nor a URL', () => {
    expect(loadConfig({ IMAGE_BASE_URL: 'https://cdn.example.com/img' }).imageBaseUrl).toBe('https://cdn.example.com/img/');
    expect(() => loadConfig({ IMAGE_BASE_URL: 'files' })).toThrow(/IMAGE_BASE_URL/);
  });

  it('rejects a token lifetime under a minute', () => {
    expect(() => loadConfig({ ACCESS_TOKEN_TTL_SECONDS: '10' })).toThrow(/ACCESS_TOKEN_TTL_SECONDS/);
  });
});

describe('loadConfig: security settings', () => {
  it('keeps the developer outbox off unless DEV_OUTBOX=true, and always off in production', () => {
    expect(loadConfig({}).devOutbox).toBe(false);
    expect(loadConfig({ DEV_OUTBOX: 'true' }).devOutbox).toBe(true);
    expect(loadConfig({ DEV_OUTBOX: 'true', NODE_ENV: 'production' }).devOutbox).toBe(false);
  });

  it('needs every Tencent SMS setting when SMS_PROVIDER=tencent, naming the missing ones', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'tencent', SMS_SECRET_ID: 'id' })).toThrow(/SMS_SECRET_KEY, SMS_SDK_APP_ID/);
    const config = loadConfig({
      SMS_PROVIDER: 'tencent',
      SMS_SECRET_ID: 'id',
      SMS_SECRET_KEY: 'key',
      SMS_SDK_APP_ID: '1400000000',
      SMS_SIGN_NAME: '智慧作业',
      SMS_TEMPLATE_ID: '100000',
    });
    expect(config.sms).toMatchObject({ provider: 'tencent', sdkAppId: '1400000000', region: '' });
  });

  it('has the documented lockout and limit defaults', () => {
    expect(loadConfig({})).toMatchObject({
      loginAccountMaxFailures: 50,
      loginAccountLockMinutes: 60,
      loginPerAccountPerMinute: 10,
      refreshPerSessionPerMinute: 10,
    });
  });
});
