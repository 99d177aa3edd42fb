import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Server tests run once on PGlite and, where TEST_DATABASE_URL points at a PostgreSQL, once more there.
const serverProjects = [
  { name: 'server:pglite', kind: 'pglite' },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'server:postgres', kind: 'postgres' }] : []),
];

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'client',
          include: ['tests/{features,shared}/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/setup/client.setup.ts'],
          css: { modules: { classNameStrategy: 'non-scoped' } },
        },
      },
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/{machines,lint}/**/*.test.ts'],
          environment: 'node',
        },
      },
      ...serverProjects.map(({ name, kind }) => ({
        extends: true as const,
        test: {
          name,
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          env: { TEST_DB_KIND: kind },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
    ],
  },
});
