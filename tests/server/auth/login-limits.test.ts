import { describe, expect, it } from 'vitest';
import { failure, fakeClock, passwordLogin } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('wrong-password lockout', () => {
  const clock = fakeClock();
  const app = useTestApp({ now: clock.now });

  it('locks the account for 15 minutes after 5 wrong passwords within 15 minutes', async () => {
    for (let i = 0; i < 4; i += 1) {
      expect(failure(await passwordLogin(app(), 'teacher', 'Wrong@2026')).msg).toBe('用户名或密码错误');
    }
    expect(failure(await passwordLogin(app(), 'teacher', 'Wrong@2026'))).toEqual({
      status: 429,
      msg: '密码错误次数过多，账号已锁定，请 15 分钟后再试',
    });
    // Even the right password is refused while locked.
    clock.advanceSeconds(60);
    expect(failure(await passwordLogin(app(), 'teacher'))).toEqual({
      status: 429,
      msg: '密码错误次数过多，账号已锁定，请 14 分钟后再试',
    });
    clock.advanceSeconds(14 * 60);
    expect((await passwordLogin(app(), 'teacher')).statusCode).toBe(200);
  });

  it('locks only the account that was attacked', async () => {
    for (let i = 0; i < 5; i += 1) await passwordLogin(app(), 'director', 'Wrong@2026');
    expect(failure(await passwordLogin(app(), 'director')).status).toBe(429);
    expect((await passwordLogin(app(), 'creator')).statusCode).toBe(200);
  });

  it('forgets wrong passwords older than the 15-minute window', async () => {
    for (let i = 0; i < 4; i += 1) await passwordLogin(app(), 'newbie', 'Wrong@2026');
    clock.advanceSeconds(15 * 60 + 1);
    expect(failure(await passwordLogin(app(), 'newbie', 'Wrong@2026')).msg).toBe('用户名或密码错误');
    expect((await passwordLogin(app(), 'newbie')).statusCode).toBe(200);
  });

  it('starts counting afresh after a successful login', async () => {
    clock.advanceSeconds(3600);
    for (let i = 0; i < 4; i += 1) await passwordLogin(app(), 'creator', 'Wrong@2026');
    expect((await passwordLogin(app(), 'creator')).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) await passwordLogin(app(), 'creator', 'Wrong@2026');
    expect((await passwordLogin(app(), 'creator')).statusCode).toBe(200);
  });
});

describe('per-IP rate limits on the token, captcha and SMS endpoints', () => {
  const app = useTestApp({ config: { rateLimitPerMinute: 3 } });

  it.each([
    ['GET', '/api/captcha'],
    ['POST', '/api/oauth/oauth/token'],
    ['POST', '/api/sms/code'],
  ] as const)('answers 429 to the fourth %s %s within a minute', async (method, url) => {
    for (let i = 0; i < 3; i += 1) {
      expect((await app().inject({ method, url, remoteAddress: '10.0.0.1' })).statusCode).not.toBe(429);
    }
    const limited = await app().inject({ method, url, remoteAddress: '10.0.0.1' });
    expect(failure(limited)).toEqual({ status: 429, msg: '操作过于频繁，请稍后再试' });
    // Another address is not affected.
    expect((await app().inject({ method, url, remoteAddress: '10.0.0.2' })).statusCode).not.toBe(429);
  });

  it('leaves ordinary endpoints unlimited', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await app().inject({ method: 'GET', url: '/api/config', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
    }
  });
});
