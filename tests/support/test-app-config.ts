/**
 * The configuration tests and benches build the real app with: the documented defaults, plus the
 * developer outbox (the suites read captcha answers and SMS codes from it), the per-account login limit
 * raised (they log in as one demo user many times a minute; login-limits.test.ts tests the limit), no
 * client build, and the demo school seeded. `overrides` replace any of it.
 */
import type { AppOptions } from '../../server/app';
import { loadConfig } from '../../server/config';

export function testAppConfig(dataDir: string, overrides: Partial<AppOptions['config']> = {}): AppOptions['config'] {
  return {
    ...loadConfig({ NODE_ENV: 'test', DEV_OUTBOX: 'true', LOGIN_PER_ACCOUNT_PER_MINUTE: '1000' }),
    dataDir,
    clientDir: '/nonexistent-client-dir',
    seedDemo: true,
    ...overrides,
  };
}
