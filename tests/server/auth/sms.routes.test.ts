import { describe, expect, it } from 'vitest';
import type { SmsMessage } from '../../../server/services/auth/sms-sender';
import { failure, fakeClock, outbox, postToken } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('POST /api/sms/code', () => {
  const clock = fakeClock();
  const sent: SmsMessage[] = [];
  const app = useTestApp({ now: clock.now, smsSender: { send: async (message) => void sent.push(message) } });
  const sendCode = (payload: object) => app().inject({ method: 'POST', url: '/api/sms/code', payload });

  it('sends a 6-digit code through the sender, records it in the outbox and answers the cooldown', async () => {
    const response = await sendCode({ mobile: '13800000001', purpose: 'login' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ cooldown: 60 });
    expect(sent.at(-1)).toMatchObject({ mobile: '13800000001', purpose: 'login' });
    expect(sent.at(-1)!.code).toMatch(/^\d{6}$/);
    expect((await outbox(app())).sms[0]).toEqual({ mobile: '13800000001', code: sent.at(-1)!.code, purpose: 'login' });
  });

  it('accepts a form-encoded body too', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/sms/code',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'mobile=13800000002&purpose=reset',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a second code for the same mobile within 60 seconds, saying how long to wait', async () => {
    await sendCode({ mobile: '13800000003', purpose: 'login' });
    clock.advanceSeconds(15);
    expect(failure(await sendCode({ mobile: '13800000003', purpose: 'reset' }))).toEqual({
      status: 429,
      msg: '短信发送过于频繁，请 45 秒后再试',
    });
    clock.advanceSeconds(45);
    expect((await sendCode({ mobile: '13800000003', purpose: 'reset' })).statusCode).toBe(200);
  });

  it('answers the same whether or not the mobile is registered, and tells only the phone holder', async () => {
    clock.advanceSeconds(120);
    // A stranger learns nothing: every purpose is sent alike for a registered and an unknown mobile.
    for (const mobile of ['13800000004', '13900000009']) {
      for (const purpose of ['register', 'login', 'reset'] as const) {
        const response = await sendCode({ mobile, purpose });
        expect(response.json()).toEqual({ code: 200, msg: '操作成功', data: { cooldown: 60 } });
        clock.advanceSeconds(61);
      }
    }
    // Holding the code, the phone's holder is told: SMS login with an unknown mobile...
    await sendCode({ mobile: '13900000009', purpose: 'login' });
    const loginCode = sent.at(-1)!.code;
    expect(failure(await postToken(app(), { grant_type: 'sms', mobile: '13900000009', smsCode: loginCode }))).toEqual({
      status: 400,
      msg: '该手机号尚未注册',
    });
    // ...while a wrong code says nothing about the mobile.
    clock.advanceSeconds(61);
    await sendCode({ mobile: '13900000009', purpose: 'login' });
    const wrong = sent.at(-1)!.code === '000000' ? '111111' : '000000';
    expect(failure(await postToken(app(), { grant_type: 'sms', mobile: '13900000009', smsCode: wrong }))).toEqual({
      status: 400,
      msg: '短信验证码错误或已过期',
    });
  });

  it('expires codes after five minutes', async () => {
    clock.advanceSeconds(120);
    await sendCode({ mobile: '13800000001', purpose: 'login' });
    const code = sent.at(-1)!.code;
    clock.advanceSeconds(301);
    const response = await postToken(app(), { grant_type: 'sms', mobile: '13800000001', smsCode: code });
    expect(failure(response)).toEqual({ status: 400, msg: '短信验证码错误或已过期' });
  });

  it('kills a code after five wrong guesses', async () => {
    clock.advanceSeconds(120);
    await sendCode({ mobile: '13800000002', purpose: 'login' });
    const code = sent.at(-1)!.code;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) await postToken(app(), { grant_type: 'sms', mobile: '13800000002', smsCode: wrong });
    const response = await postToken(app(), { grant_type: 'sms', mobile: '13800000002', smsCode: code });
    expect(failure(response).msg).toBe('短信验证码错误或已过期');
  });

  it.each([
    [{ mobile: '12345678901', purpose: 'login' }, '请输入正确的手机号码'],
    [{ mobile: '13800000001', purpose: 'spam' }, 'purpose'],
    [{ purpose: 'login' }, 'mobile：不能为空'],
    [{}, 'mobile'],
  ])('answers 400 with a clear message for %j', async (payload, expected) => {
    const { status, msg } = failure(await sendCode(payload));
    expect(status).toBe(400);
    expect(msg).toContain(expected);
  });

  it('answers 400 for an empty body', async () => {
    const response = await app().inject({ method: 'POST', url: '/api/sms/code' });
    expect(failure(response).status).toBe(400);
  });
});

describe('POST /api/sms/code without an SMS provider (production)', () => {
  const app = useTestApp({ smsSender: null });

  it('says SMS is not available instead of pretending to send', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/sms/code',
      payload: { mobile: '13800000001', purpose: 'login' },
    });
    expect(failure(response)).toEqual({
      status: 400,
      msg: '本系统未配置短信服务，暂不能发送短信验证码，请使用账号密码登录或联系学校管理员',
    });
  });
});
