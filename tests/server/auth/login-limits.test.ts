import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OAUTH_BASIC_HEADER } from '../../../src/shared/contract/auth';
import { DEMO, failure, fakeClock, loginAs, passwordLogin, postToken, solvedCaptcha } from '../accounts-helper';
import { useTestApp } from '../helper';

/** A password login from a given address. */
async function loginFrom(app: FastifyInstance, ip: string, username: string, password: string = DEMO.password) {
  return app.inject({
    method: 'POST',
    url: '/api/oauth/oauth/token',
    remoteAddress: ip,
    headers: { authorization: OAUTH_BASIC_HEADER, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username, password, ...(await solvedCaptcha(app)) }).toString(),
  });
}

describe('wrong-password lockout', () => {
  const clock = fakeClock();
  const app = useTestApp({ now: clock.now, config: { loginAccountMaxFailures: 12 } });

  it('tells the attempts left and locks this address for 15 minutes after 5 wrong passwords', async () => {
    for (const left of [4, 3, 2, 1]) {
      expect(failure(await passwordLogin(app(), 'teacher', 'Wrong@2026')).msg).toBe(`用户名或密码错误，还可尝试 ${left} 次`);
    }
    expect(failure(await passwordLogin(app(), 'teacher', 'Wrong@2026'))).toEqual({
      status: 429,
      msg: '密码错误次数过多，账号已锁定，请 15 分钟后再试',
    });
    // Even the right password is refused from this address while locked.
    clock.advanceSeconds(60);
    expect(failure(await passwordLogin(app(), 'teacher'))).toEqual({
      status: 429,
      msg: '密码错误次数过多，账号已锁定，请 14 分钟后再试',
    });
    // The teacher at another address is not locked out by the stranger.
    expect((await loginFrom(app(), '10.1.1.1', 'teacher')).statusCode).toBe(200);
    clock.advanceSeconds(14 * 60);
    expect((await passwordLogin(app(), 'teacher')).statusCode).toBe(200);
  });

  it('locks the account for every address after many wrong passwords from many addresses', async () => {
    clock.advanceSeconds(3600);
    for (let i = 0; i < 11; i += 1) await loginFrom(app(), `10.2.0.${i}`, 'director', 'Wrong@2026');
    expect(failure(await loginFrom(app(), '10.2.1.1', 'director', 'Wrong@2026'))).toEqual({
      status: 429,
      msg: '密码错误次数过多，账号已锁定，请 60 分钟后再试',
    });
    expect(failure(await loginFrom(app(), '10.2.9.9', 'director')).status).toBe(429);
    // Other accounts are not affected.
    expect((await loginFrom(app(), '10.2.9.9', 'creator')).statusCode).toBe(200);
    clock.advanceSeconds(3601);
    expect((await loginFrom(app(), '10.2.9.9', 'director')).statusCode).toBe(200);
  });

  it('counts an unknown name like a known one, so the answers do not reveal which accounts exist', async () => {
    const known = failure(await loginFrom(app(), '10.3.0.1', 'newbie', 'Wrong@2026'));
    const unknown = failure(await loginFrom(app(), '10.3.0.1', 'nobody', 'Wrong@2026'));
    expect(unknown).toEqual(known);
    expect(known).toEqual({ status: 400, msg: '用户名或密码错误，还可尝试 4 次' });
  });

  it('forgets wrong passwords older than the 15-minute window', async () => {
    for (let i = 0; i < 4; i += 1) await loginFrom(app(), '10.4.0.1', 'newbie', 'Wrong@2026');
    clock.advanceSeconds(15 * 60 + 1);
    expect(failure(await loginFrom(app(), '10.4.0.1', 'newbie', 'Wrong@2026')).msg).toBe('用户名或密码错误，还可尝试 4 次');
    expect((await loginFrom(app(), '10.4.0.1', 'newbie')).statusCode).toBe(200);
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

describe('token endpoint limits per account and per session', () => {
  const app = useTestApp({ config: { loginPerAccountPerMinute: 3, refreshPerSessionPerMinute: 2, rateLimitPerMinute: 100 } });

  it('limits password logins of one account from any address, not the other accounts', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect((await loginFrom(app(), `10.5.0.${i}`, 'teacher')).statusCode).toBe(200);
    }
    expect(failure(await loginFrom(app(), '10.5.1.1', 'teacher'))).toEqual({ status: 429, msg: '操作过于频繁，请稍后再试' });
    expect((await loginFrom(app(), '10.5.1.1', 'director')).statusCode).toBe(200);
  });

  it('limits refreshes per session, so many sessions behind one address all refresh', async () => {
    const sessions = [await loginAs(app(), 'creator'), await loginAs(app(), 'newbie'), await loginAs(app(), 'director')];
    // Three sessions from one (NAT) address refresh twice each: six refreshes, none refused.
    for (const session of sessions) {
      let token = session.refresh_token;
      for (let i = 0; i < 2; i += 1) {
        const response = await postToken(app(), { grant_type: 'refresh_token', refresh_token: token });
        expect(response.statusCode).toBe(200);
        token = response.json().data.refresh_token as string;
      }
      // The third refresh of one session within the minute is refused.
      const third = await postToken(app(), { grant_type: 'refresh_token', refresh_token: token });
      expect(failure(third)).toEqual({ status: 429, msg: '操作过于频繁，请稍后再试' });
    }
  });
});
