import { describe, expect, it } from 'vitest';
import { devOutboxSchema } from '../../../src/shared/contract/auth';
import { useTestApp } from '../helper';

describe('GET /api/dev/outbox', () => {
  describe('outside production', () => {
    const app = useTestApp();

    it('lists SMS codes and captcha texts, latest first', async () => {
      await app().inject({ method: 'GET', url: '/api/captcha' });
      const second = (await app().inject({ method: 'GET', url: '/api/captcha' })).json().data.captchaKey;
      await app().inject({ method: 'POST', url: '/api/sms/code', payload: { mobile: '13800000001', purpose: 'login' } });
      const response = await app().inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(200);
      expect(response.json().code).toBe(200);
      const outbox = devOutboxSchema.parse(response.json().data);
      expect(outbox.captcha).toHaveLength(2);
      expect(outbox.captcha[0]!.key).toBe(second);
      expect(outbox.sms).toEqual([{ mobile: '13800000001', code: expect.stringMatching(/^\d{6}$/), purpose: 'login' }]);
    });
  });

  describe('in production', () => {
    const app = useTestApp({ config: { nodeEnv: 'production' } });

    it('does not exist', async () => {
      const response = await app().inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: '很抱歉，资源未找到', data: null });
    });
  });
});
