import { describe, expect, it } from 'vitest';
import { UNAUTHORIZED_MESSAGE, currentUserSchema, tokenResponseSchema } from '../../../src/shared/contract/auth';
import { DEMO, bearer, failure, fakeClock, loginAs, passwordLogin, smsCode } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('the /api/user endpoints', () => {
  const clock = fakeClock();
  const app = useTestApp({ now: clock.now });
  // Each SMS needs its own minute of cooldown per mobile; moving time keeps the tests independent.
  const nextMinute = () => clock.advanceSeconds(61);
  const inject = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token?: string) =>
    app().inject({ method, url, payload, headers: token ? bearer(token) : {} });

  describe('POST /api/user/register', () => {
    it('creates the account with the mobile as username and logs it in', async () => {
      const code = await smsCode(app(), '13900000001', 'register');
      const response = await inject('POST', '/api/user/register', {
        nickname: '赵老师',
        mobile: '13900000001',
        smsCode: code,
        password: 'Zhao2026x',
        password2: 'Zhao2026x',
      });
      expect(response.statusCode).toBe(200);
      const body = tokenResponseSchema.parse(response.json().data);
      expect(body.user).toMatchObject({
        username: '13900000001',
        nickname: '赵老师',
        mobile: '139****0001',
        orgs: [],
        userGradeInfo: { orgDefaultId: null, classDefaultId: null, gradeDirector: false, isCreator: false },
      });
      expect((await inject('GET', '/api/user/info', undefined, body.access_token)).statusCode).toBe(200);
      expect((await passwordLogin(app(), '13900000001', 'Zhao2026x')).statusCode).toBe(200);
    });

    it('refuses a mobile that is already registered, telling only the holder of a valid code', async () => {
      const guess = await inject('POST', '/api/user/register', {
        nickname: '冒名',
        mobile: '13800000001',
        smsCode: '123456',
        password: 'Abcd1234',
        password2: 'Abcd1234',
      });
      expect(failure(guess)).toEqual({ status: 400, msg: '短信验证码错误或已过期' });
      nextMinute();
      const response = await inject('POST', '/api/user/register', {
        nickname: '冒名',
        mobile: '13800000001',
        smsCode: await smsCode(app(), '13800000001', 'register'),
        password: 'Abcd1234',
        password2: 'Abcd1234',
      });
      expect(failure(response)).toEqual({ status: 400, msg: '该手机号已注册' });
    });

    it('refuses a wrong SMS code', async () => {
      nextMinute();
      const code = await smsCode(app(), '13900000002', 'register');
      const response = await inject('POST', '/api/user/register', {
        nickname: '钱老师',
        mobile: '13900000002',
        smsCode: code === '000000' ? '111111' : '000000',
        password: 'Abcd1234',
        password2: 'Abcd1234',
      });
      expect(failure(response)).toEqual({ status: 400, msg: '短信验证码错误或已过期' });
    });

    it.each([
      [{ nickname: '', mobile: '13900000003', smsCode: '123456', password: 'Abcd1234', password2: 'Abcd1234' }, '请输入昵称'],
      [
        { nickname: '孙', mobile: '13900000003', smsCode: '123456', password: 'abcdefgh', password2: 'abcdefgh' },
        '密码至少 8 位',
      ],
      [
        { nickname: '孙', mobile: '13900000003', smsCode: '123456', password: 'Abcd1234', password2: 'Abcd12345' },
        '两次输入的密码不一致',
      ],
      [
        { nickname: '孙', mobile: '13900000003', smsCode: '12', password: 'Abcd1234', password2: 'Abcd1234' },
        '短信验证码为 6 位数字',
      ],
      [{ nickname: '孙' }, 'mobile：不能为空'],
    ])('answers 400 with a clear message for %j', async (payload, expected) => {
      const { status, msg } = failure(await inject('POST', '/api/user/register', payload));
      expect(status).toBe(400);
      expect(msg).toContain(expected);
    });
  });

  describe('GET /api/user/info', () => {
    it('answers the current user with a masked mobile and the default school year', async () => {
      const { access_token } = await loginAs(app(), 'teacher');
      const response = await inject('GET', '/api/user/info', undefined, access_token);
      const user = currentUserSchema.parse(response.json().data);
      expect(user).toMatchObject({ username: 'teacher', nickname: '王老师', mobile: '138****0001' });
      expect(user.orgs).toEqual([
        { id: user.userGradeInfo.orgDefaultId, name: '示范中学', role: 'teacher', gradeDirector: false },
      ]);
      expect(user.userGradeInfo.classDefaultName).toBe('2026级 (初一)');
    });

    it('answers 401 without a token', async () => {
      expect(failure(await inject('GET', '/api/user/info'))).toEqual({ status: 401, msg: UNAUTHORIZED_MESSAGE });
    });
  });

  describe('PUT /api/user/profile', () => {
    it('changes the nickname and answers the current user', async () => {
      const { access_token } = await loginAs(app(), 'director');
      const response = await inject('PUT', '/api/user/profile', { nickname: '  李主任（语文） ' }, access_token);
      expect(currentUserSchema.parse(response.json().data).nickname).toBe('李主任（语文）');
    });

    it('refuses an empty nickname', async () => {
      const { access_token } = await loginAs(app(), 'director');
      const { status, msg } = failure(await inject('PUT', '/api/user/profile', { nickname: ' ' }, access_token));
      expect(status).toBe(400);
      expect(msg).toContain('请输入昵称');
    });
  });

  describe('PUT /api/user/mobile', () => {
    it('binds a new mobile proven by a bind code', async () => {
      nextMinute();
      const { access_token } = await loginAs(app(), 'newbie');
      const code = await smsCode(app(), '13900000005', 'bind');
      const response = await inject('PUT', '/api/user/mobile', { mobile: '13900000005', smsCode: code }, access_token);
      expect(currentUserSchema.parse(response.json().data).mobile).toBe('139****0005');
      expect((await passwordLogin(app(), '13900000005')).statusCode).toBe(200);
    });

    it('refuses a mobile that belongs to someone else', async () => {
      nextMinute();
      const { access_token } = await loginAs(app(), 'newbie');
      const code = await smsCode(app(), '13800000001', 'bind');
      const response = await inject('PUT', '/api/user/mobile', { mobile: '13800000001', smsCode: code }, access_token);
      expect(failure(response)).toEqual({ status: 400, msg: '该手机号已注册' });
    });

    it('refuses a code sent for another purpose', async () => {
      nextMinute();
      const { access_token } = await loginAs(app(), 'creator');
      const code = await smsCode(app(), '13800000003', 'login');
      const response = await inject('PUT', '/api/user/mobile', { mobile: '13800000003', smsCode: code }, access_token);
      expect(failure(response).msg).toBe('短信验证码错误或已过期');
    });
  });

  describe('PUT /api/user/password', () => {
    it('changes the password, keeps this session and ends the others', async () => {
      const other = await loginAs(app(), 'creator');
      const current = await loginAs(app(), 'creator');
      const response = await inject(
        'PUT',
        '/api/user/password',
        { oldPassword: DEMO.password, password: 'Creator2026', password2: 'Creator2026' },
        current.access_token,
      );
      expect(response.statusCode).toBe(200);
      expect((await inject('GET', '/api/user/info', undefined, current.access_token)).statusCode).toBe(200);
      expect(failure(await inject('GET', '/api/user/info', undefined, other.access_token)).status).toBe(401);
      expect(failure(await passwordLogin(app(), 'creator')).msg).toMatch(/^用户名或密码错误/);
      expect((await passwordLogin(app(), 'creator', 'Creator2026')).statusCode).toBe(200);
    });

    it('refuses a wrong old password', async () => {
      const { access_token } = await loginAs(app(), 'teacher');
      const response = await inject(
        'PUT',
        '/api/user/password',
        { oldPassword: 'Wrong@2026', password: 'Teacher2026', password2: 'Teacher2026' },
        access_token,
      );
      expect(failure(response)).toEqual({ status: 400, msg: '原密码错误' });
    });

    it('answers 401 without a token', async () => {
      const response = await inject('PUT', '/api/user/password', {
        oldPassword: 'x',
        password: 'Abcd1234',
        password2: 'Abcd1234',
      });
      expect(failure(response).status).toBe(401);
    });
  });

  describe('POST /api/user/password/reset', () => {
    it('sets a new password by SMS and ends every session', async () => {
      nextMinute();
      const before = await loginAs(app(), 'director');
      const code = await smsCode(app(), '13800000002', 'reset');
      const response = await inject('POST', '/api/user/password/reset', {
        mobile: '13800000002',
        smsCode: code,
        password: 'Director2026',
        password2: 'Director2026',
      });
      expect(response.statusCode).toBe(200);
      expect(failure(await inject('GET', '/api/user/info', undefined, before.access_token)).status).toBe(401);
      expect((await passwordLogin(app(), 'director', 'Director2026')).statusCode).toBe(200);
    });

    it('refuses an unknown mobile, telling only the holder of a valid code', async () => {
      nextMinute();
      const response = await inject('POST', '/api/user/password/reset', {
        mobile: '13700000000',
        smsCode: await smsCode(app(), '13700000000', 'reset'),
        password: 'Abcd1234',
        password2: 'Abcd1234',
      });
      expect(failure(response)).toEqual({ status: 400, msg: '该手机号尚未注册' });
    });
  });
});
