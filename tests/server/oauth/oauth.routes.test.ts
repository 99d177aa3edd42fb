import { describe, expect, it } from 'vitest';
import {
  OAUTH_BASIC_HEADER,
  REFRESH_TOKEN_INVALID_MESSAGE,
  UNAUTHORIZED_MESSAGE,
  tokenResponseSchema,
} from '../../../src/shared/contract/auth';
import { DEMO, bearer, failure, fakeClock, loginAs, passwordLogin, postToken, smsCode, solvedCaptcha } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('tokens and sessions', () => {
  const clock = fakeClock();
  const app = useTestApp({ now: clock.now });

  const userInfo = (token: string) => app().inject({ method: 'GET', url: '/api/user/info', headers: bearer(token) });
  const refresh = (refreshToken: string) => postToken(app(), { grant_type: 'refresh_token', refresh_token: refreshToken });

  describe('POST /api/oauth/oauth/token with grant_type=password', () => {
    it('logs the demo teacher in and answers tokens with the current user', async () => {
      const response = await passwordLogin(app(), 'teacher');
      expect(response.statusCode).toBe(200);
      const body = tokenResponseSchema.parse(response.json().data);
      expect(body.token_type).toBe('bearer');
      expect(body.expires_in).toBe(7200);
      expect(body.access_token).not.toBe(body.refresh_token);
      expect(body.user).toMatchObject({
        username: 'teacher',
        nickname: '王老师',
        mobile: '138****0001',
        avatar: null,
        wechatBound: false,
        userGradeInfo: {
          orgName: '示范中学',
          gradeDirector: false,
          isCreator: false,
          classDefaultName: '2026级 (初一)',
        },
      });
      expect((await userInfo(body.access_token)).statusCode).toBe(200);
    });

    it('accepts the mobile in place of the username', async () => {
      const body = await loginAs(app(), '13800000002');
      expect(body.user.username).toBe('director');
      expect(body.user.userGradeInfo.gradeDirector).toBe(true);
    });

    it('rejects a wrong password and an unknown user with the same message', async () => {
      const wrong = failure(await passwordLogin(app(), 'teacher', 'Wrong@2026'));
      const unknown = failure(await passwordLogin(app(), 'nobody', DEMO.password));
      // Both are counted alike, so even the attempts left do not tell that the account exists.
      expect(wrong).toEqual({ status: 400, msg: '用户名或密码错误，还可尝试 4 次' });
      expect(unknown).toEqual(wrong);
    });

    it('rejects a wrong captcha', async () => {
      const { captchaKey } = await solvedCaptcha(app());
      const response = await postToken(app(), {
        grant_type: 'password',
        username: 'teacher',
        password: DEMO.password,
        captchaKey,
        captcha: 'ZZZZ',
      });
      expect(failure(response)).toEqual({ status: 400, msg: '图形验证码错误或已过期' });
    });

    it('compares the captcha case-insensitively', async () => {
      const { captchaKey, captcha } = await solvedCaptcha(app());
      const response = await postToken(app(), {
        grant_type: 'password',
        username: 'teacher',
        password: DEMO.password,
        captchaKey,
        captcha: captcha.toLowerCase(),
      });
      expect(response.statusCode).toBe(200);
    });

    it('rejects a captcha used once already, even when the first use had a wrong password', async () => {
      const solved = await solvedCaptcha(app());
      const first = await postToken(app(), { grant_type: 'password', username: 'teacher', password: 'Wrong@2026', ...solved });
      expect(failure(first).msg).toMatch(/^用户名或密码错误/);
      const second = await postToken(app(), { grant_type: 'password', username: 'teacher', password: DEMO.password, ...solved });
      expect(failure(second)).toEqual({ status: 400, msg: '图形验证码错误或已过期' });
    });

    it('rejects a captcha older than five minutes', async () => {
      const solved = await solvedCaptcha(app());
      clock.advanceSeconds(301);
      const response = await postToken(app(), {
        grant_type: 'password',
        username: 'teacher',
        password: DEMO.password,
        ...solved,
      });
      expect(failure(response)).toEqual({ status: 400, msg: '图形验证码错误或已过期' });
    });

    it('requires the client credential header', async () => {
      const form = { grant_type: 'password', username: 'teacher', password: DEMO.password, ...(await solvedCaptcha(app())) };
      expect(failure(await postToken(app(), form, 'Basic bm9ib2R5Om5vYm9keQ=='))).toEqual({ status: 401, msg: '客户端认证失败' });
      const withoutHeader = await app().inject({ method: 'POST', url: '/api/oauth/oauth/token', payload: form });
      expect(failure(withoutHeader).status).toBe(401);
    });

    it.each([
      [{ grant_type: 'password', password: DEMO.password, captchaKey: 'k', captcha: 'ABCD' }, 'username：不能为空'],
      [{ grant_type: 'password', username: ' ', password: DEMO.password, captchaKey: 'k', captcha: 'ABCD' }, '请输入用户名'],
      [{ grant_type: 'password', username: 'teacher', captchaKey: 'k', captcha: 'ABCD' }, 'password：不能为空'],
      [{ grant_type: 'password', username: 'teacher', password: DEMO.password }, 'captchaKey：不能为空'],
      [
        { grant_type: 'password', username: 'teacher', password: DEMO.password, captchaKey: 'k', captcha: '' },
        '请输入图形验证码',
      ],
      [{ grant_type: 'client_credentials' }, 'grant_type'],
      [{}, 'grant_type'],
      [{ grant_type: 'refresh_token' }, 'refresh_token'],
      [{ grant_type: 'sms', mobile: '12345', smsCode: '123456' }, '请输入正确的手机号码'],
    ])('answers 400 with a clear message for the malformed form %j', async (form, expected) => {
      const { status, msg } = failure(await postToken(app(), form as Record<string, string>));
      expect(status).toBe(400);
      expect(msg).toContain(expected);
    });

    it('answers 400 for a malformed JSON body, never 500', async () => {
      const response = await app().inject({
        method: 'POST',
        url: '/api/oauth/oauth/token',
        headers: { authorization: OAUTH_BASIC_HEADER, 'content-type': 'application/json' },
        payload: '{"grant_type":',
      });
      expect(failure(response).status).toBe(400);
    });
  });

  describe('POST /api/oauth/oauth/token with grant_type=sms', () => {
    it('logs in with a login code sent to a registered mobile', async () => {
      const code = await smsCode(app(), '13800000003', 'login');
      const response = await postToken(app(), { grant_type: 'sms', mobile: '13800000003', smsCode: code });
      expect(response.statusCode).toBe(200);
      expect(tokenResponseSchema.parse(response.json().data).user.userGradeInfo.isCreator).toBe(true);
    });

    it('rejects a wrong code and a code used twice', async () => {
      clock.advanceSeconds(61);
      const code = await smsCode(app(), '13800000003', 'login');
      const wrong = code === '000000' ? '111111' : '000000';
      expect(failure(await postToken(app(), { grant_type: 'sms', mobile: '13800000003', smsCode: wrong }))).toEqual({
        status: 400,
        msg: '短信验证码错误或已过期',
      });
      expect((await postToken(app(), { grant_type: 'sms', mobile: '13800000003', smsCode: code })).statusCode).toBe(200);
      expect(failure(await postToken(app(), { grant_type: 'sms', mobile: '13800000003', smsCode: code })).msg).toBe(
        '短信验证码错误或已过期',
      );
    });
  });

  describe('POST /api/oauth/oauth/token with grant_type=refresh_token', () => {
    it('rotates: answers a new pair, and the new access token works', async () => {
      const login = await loginAs(app(), 'teacher');
      const response = await refresh(login.refresh_token);
      expect(response.statusCode).toBe(200);
      const rotated = tokenResponseSchema.parse(response.json().data);
      expect(rotated.refresh_token).not.toBe(login.refresh_token);
      expect(rotated.user.username).toBe('teacher');
      expect((await userInfo(rotated.access_token)).statusCode).toBe(200);
    });

    it('revokes the whole family when a spent refresh token is used again', async () => {
      const login = await loginAs(app(), 'teacher');
      const rotated = tokenResponseSchema.parse((await refresh(login.refresh_token)).json().data);

      expect(failure(await refresh(login.refresh_token))).toEqual({ status: 400, msg: REFRESH_TOKEN_INVALID_MESSAGE });

      expect(failure(await userInfo(rotated.access_token))).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
      expect(failure(await userInfo(login.access_token)).status).toBe(401);
      expect(failure(await refresh(rotated.refresh_token))).toEqual({ status: 400, msg: REFRESH_TOKEN_INVALID_MESSAGE });
    });

    it('leaves other sessions of the same user alone when one family is revoked', async () => {
      const other = await loginAs(app(), 'teacher');
      const victim = await loginAs(app(), 'teacher');
      await refresh(victim.refresh_token);
      await refresh(victim.refresh_token);
      expect((await userInfo(other.access_token)).statusCode).toBe(200);
    });

    it('rejects an unknown refresh token', async () => {
      expect(failure(await refresh('not-a-token'))).toEqual({ status: 400, msg: REFRESH_TOKEN_INVALID_MESSAGE });
    });

    it('rejects an expired refresh token', async () => {
      const login = await loginAs(app(), 'teacher');
      clock.advanceSeconds(2_592_000 + 1);
      expect(failure(await refresh(login.refresh_token))).toEqual({ status: 400, msg: REFRESH_TOKEN_INVALID_MESSAGE });
    });

    it('stops accepting an access token after its two hours', async () => {
      const login = await loginAs(app(), 'teacher');
      clock.advanceSeconds(7199);
      expect((await userInfo(login.access_token)).statusCode).toBe(200);
      clock.advanceSeconds(2);
      expect(failure(await userInfo(login.access_token))).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
      // The refresh token outlives it and renews the session.
      expect((await refresh(login.refresh_token)).statusCode).toBe(200);
    });
  });

  describe('DELETE /api/oauth/signout', () => {
    it('revokes the session: its access and refresh tokens stop working', async () => {
      const login = await loginAs(app(), 'teacher');
      const response = await app().inject({ method: 'DELETE', url: '/api/oauth/signout', headers: bearer(login.access_token) });
      expect(response.statusCode).toBe(200);
      expect(response.json().code).toBe(200);
      expect(failure(await userInfo(login.access_token))).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
      expect(failure(await refresh(login.refresh_token)).msg).toBe(REFRESH_TOKEN_INVALID_MESSAGE);
    });

    it('answers 401 without a bearer token', async () => {
      const response = await app().inject({ method: 'DELETE', url: '/api/oauth/signout' });
      expect(failure(response)).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
    });
  });

  describe('the bearer check on protected endpoints', () => {
    it.each([undefined, 'Bearer', 'Bearer nope', 'Basic abc', `Bearer ${'x'.repeat(300)}`])(
      'answers 401 for the Authorization header %s',
      async (authorization) => {
        const response = await app().inject({
          method: 'GET',
          url: '/api/user/info',
          headers: authorization === undefined ? {} : { authorization },
        });
        expect(failure(response)).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
      },
    );
  });
});
