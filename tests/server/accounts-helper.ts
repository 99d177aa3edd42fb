/**
 * Test helpers for the account endpoints: read captchas and SMS codes from the developer outbox, log in
 * as a demo user, and move a fake clock.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  OAUTH_BASIC_HEADER,
  type SmsPurpose,
  type TokenResponse,
  devOutboxSchema,
  tokenResponseSchema,
} from '../../src/shared/contract/auth';
import { DEMO_PASSWORD } from '../../server/db/seed';

export const DEMO = { password: DEMO_PASSWORD } as const;

export function fakeClock(start = new Date('2026-03-02T08:00:00Z')) {
  let at = start.getTime();
  return {
    now: () => new Date(at),
    advanceSeconds(seconds: number) {
      at += seconds * 1000;
    },
  };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function outbox(app: FastifyInstance) {
  const response = await app.inject({ method: 'GET', url: '/api/dev/outbox' });
  expect(response.statusCode).toBe(200);
  return devOutboxSchema.parse(response.json().data);
}

/** A fresh captcha and its answer (read from the developer outbox). */
export async function solvedCaptcha(app: FastifyInstance): Promise<{ captchaKey: string; captcha: string }> {
  const response = await app.inject({ method: 'GET', url: '/api/captcha' });
  expect(response.statusCode).toBe(200);
  const captchaKey = response.json().data.captchaKey as string;
  const entry = (await outbox(app)).captcha.find((item) => item.key === captchaKey);
  if (!entry) throw new Error('captcha not in the outbox');
  return { captchaKey, captcha: entry.text };
}

export function postToken(app: FastifyInstance, form: Record<string, string>, authorization = OAUTH_BASIC_HEADER) {
  return app.inject({
    method: 'POST',
    url: '/api/oauth/oauth/token',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

export async function passwordLogin(
  app: FastifyInstance,
  username: string,
  password: string = DEMO.password,
): Promise<LightMyRequestResponse> {
  return postToken(app, { grant_type: 'password', username, password, ...(await solvedCaptcha(app)) });
}

export async function loginAs(app: FastifyInstance, username: string, password: string = DEMO.password): Promise<TokenResponse> {
  const response = await passwordLogin(app, username, password);
  expect(response.json().msg).toBe('操作成功');
  expect(response.statusCode).toBe(200);
  return tokenResponseSchema.parse(response.json().data);
}

/** Sends an SMS code and answers it, as the phone would have received it. */
export async function smsCode(app: FastifyInstance, mobile: string, purpose: SmsPurpose): Promise<string> {
  const response = await app.inject({ method: 'POST', url: '/api/sms/code', payload: { mobile, purpose } });
  expect(response.json().msg).toBe('操作成功');
  const entry = (await outbox(app)).sms.find((item) => item.mobile === mobile && item.purpose === purpose);
  if (!entry) throw new Error('SMS code not in the outbox');
  return entry.code;
}

/** The envelope of a failed call: its HTTP status and message. */
export function failure(response: LightMyRequestResponse) {
  const body = response.json();
  expect(body.code).toBe(response.statusCode);
  expect(body.data).toBeNull();
  return { status: response.statusCode, msg: body.msg as string };
}
