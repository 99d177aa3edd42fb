import { describe, expect, it } from 'vitest';
import { clientConfigSchema } from '../../../src/shared/contract/system';
import { useTestApp } from '../helper';

describe('GET /api/config', () => {
  describe('with the defaults', () => {
    const app = useTestApp();

    it('answers the public product config without a login', async () => {
      const response = await app().inject({ method: 'GET', url: '/api/config' });
      expect(response.statusCode).toBe(200);
      expect(clientConfigSchema.parse(response.json().data)).toEqual({
        imageBaseUrl: '/files/',
        websocketBaseUrl: '',
        captchaSiteKey: '',
        messagingAppId: '',
        dwtProductKey: '',
        filingNumber: '京ICP备2026000001号-1',
      });
    });
  });

  describe('with configured values', () => {
    const app = useTestApp({
      config: {
        imageBaseUrl: 'https://cdn.example.com/img/',
        websocketBaseUrl: 'wss://ws.example.com',
        captchaSiteKey: 'site-key',
        messagingAppId: 'app-id',
        dwtProductKey: 'dwt-key',
        filingNumber: '沪ICP备2026000002号',
      },
    });

    it('answers them, and does not serve files locally for a remote image base URL', async () => {
      const response = await app().inject({ method: 'GET', url: '/api/config' });
      expect(response.json().data).toEqual({
        imageBaseUrl: 'https://cdn.example.com/img/',
        websocketBaseUrl: 'wss://ws.example.com',
        captchaSiteKey: 'site-key',
        messagingAppId: 'app-id',
        dwtProductKey: 'dwt-key',
        filingNumber: '沪ICP备2026000002号',
      });
      expect((await app().inject({ method: 'GET', url: '/files/avatars/x.png' })).statusCode).toBe(404);
    });
  });
});
