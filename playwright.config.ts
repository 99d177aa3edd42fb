import { defineConfig, devices } from '@playwright/test';

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
    command: `rm -rf .test-output/e2e-data-${PORT} && node node_modules/tsx/dist/cli.mjs scripts/start.ts`,
    url: `${E2E_BASE_URL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `.test-output/e2e-data-${PORT}`,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
    },
  },
});
