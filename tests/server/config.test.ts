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
