import { describe, expect, it } from 'vitest';
import { DWT_RESOURCES_PATH, SCAN_SERVICE_INSTALLERS } from '../../../src/shared/contract/scan';
import { useTestApp } from '../helper';

describe('scanner resources', () => {
  const app = useTestApp();

  it('serves Dynamic Web TWAIN’s resources and every scanning service installer from our own server', async () => {
    const script = await app().inject({ method: 'GET', url: `${DWT_RESOURCES_PATH}src/dynamsoft.lts.js` });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    for (const installer of SCAN_SERVICE_INSTALLERS) {
      const response = await app().inject({ method: 'HEAD', url: installer.href });
      expect(response.statusCode, installer.href).toBe(200);
      expect(Number(response.headers['content-length'])).toBeGreaterThan(1_000_000);
    }
  });

  it('answers a missing resource with the JSON 404, not a page', async () => {
    const response = await app().inject({ method: 'GET', url: `${DWT_RESOURCES_PATH}nope.js` });
    expect(response.statusCode).toBe(404);
  });
});
