import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// Earlier runs' databases and builds (each run has its own, see webServer) are removed after an hour.
if (!process.env.E2E_PORT && fs.existsSync('.test-output')) {
  for (const entry of fs.readdirSync('.test-output')) {
    const full = path.join('.test-output', entry);
    if (/^e2e-(data|client)-\d+$/.test(entry) && Date.now() - fs.statSync(full).mtimeMs > 3_600_000) {
      fs.rmSync(full, { recursive: true, force: true });
    }
  }
}

// A random port, chosen once in the main process and inherited by the workers, so that several runs
// (and a developer's own server on 8080) never collide.
process.env.E2E_PORT ??= String(20_000 + Math.floor(Math.random() * 20_000));
const PORT = Number(process.env.E2E_PORT);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: '.test-output/playwright',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: '.test-output/playwright.json' }]] : [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: {
    // A fresh embedded database with the demo school for every run.
    command: `rm -rf .test-output/e2e-data-${PORT} .test-output/e2e-client-${PORT} && node node_modules/tsx/dist/cli.mjs scripts/start.ts`,
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `.test-output/e2e-data-${PORT}`,
      // Its own build, so a concurrent run (or a developer's rebuild) never swaps files under this one.
      CLIENT_DIR: `.test-output/e2e-client-${PORT}`,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // The background demo scans would compete with the tests' own scans and change the newest homework.
      DEMO_SCANS: 'false',
      // The suites read captcha answers and SMS codes from the developer outbox (loopback only).
      DEV_OUTBOX: 'true',
    },
  },
});
