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

  describe('asked from another machine', () => {
    const app = useTestApp();

    it('answers 404, as if it did not exist', async () => {
      await app().inject({ method: 'GET', url: '/api/captcha' });
      const response = await app().inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress: '192.168.1.20' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: '很抱歉，资源未找到', data: null });
    });

    it('answers loopback callers in their IPv4, IPv6 and mapped forms', async () => {
      for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect((await app().inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress })).statusCode).toBe(200);
      }
    });
  });

  describe('without DEV_OUTBOX (what npm start runs)', () => {
    const app = useTestApp({ config: { devOutbox: false } });

    it('does not exist, and the SMS and captcha endpoints still work', async () => {
      expect((await app().inject({ method: 'GET', url: '/api/captcha' })).statusCode).toBe(200);
      const response = await app().inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: '很抱歉，资源未找到', data: null });
      expect(app().accounts.outbox.snapshot()).toEqual({ sms: [], captcha: [] });
    });
  });

  describe('in production, even with DEV_OUTBOX=true', () => {
    const app = useTestApp({ config: { nodeEnv: 'production', devOutbox: true } });

    it('does not exist', async () => {
      const response = await app().inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: '很抱歉，资源未找到', data: null });
    });
  });
});
