import { describe, expect, it } from 'vitest';
import { healthSchema } from '../../../src/shared/contract/health';
import { useTestApp } from '../helper';

describe('GET /api/health', () => {
  const app = useTestApp();

  it('answers the database kind and version in the envelope', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.code).toBe(200);
    const health = healthSchema.parse(body.data);
    expect(health.database).toBe(process.env.TEST_DB_KIND === 'postgres' ? 'postgres' : 'pglite');
    expect(health.databaseVersion).toMatch(/PostgreSQL \d+/);
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
