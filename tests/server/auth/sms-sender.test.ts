import { describe, expect, it } from 'vitest';
import type { SmsConfig } from '../../../server/config';
import { SmsDeliveryError, createTencentSmsSender, signTc3 } from '../../../server/services/auth/sms-sender';

describe('signTc3 (Tencent Cloud API 3.0 signature)', () => {
  it('reproduces the documented example (CVM DescribeInstances, 2019-02-25)', () => {
    // The example of https://cloud.tencent.com/document/api/213/30654, whose credentials the page masks
    // with asterisks: the signature below is computed over those literal strings.
    const { authorization, headers } = signTc3({
      secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******',
      secretKey: 'Gu5t9xGARNpq86cd98joQYCN3*******',
      service: 'cvm',
      host: 'cvm.tencentcloudapi.com',
      action: 'DescribeInstances',
      version: '2017-03-12',
      region: 'ap-guangzhou',
      payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
      timestamp: 1551113065,
    });
    expect(authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c',
    );
    expect(headers).toMatchObject({
      'X-TC-Action': 'DescribeInstances',
      'X-TC-Timestamp': '1551113065',
      'X-TC-Version': '2017-03-12',
      'X-TC-Region': 'ap-guangzhou',
      'Content-Type': 'application/json; charset=utf-8',
    });
  });
});

describe('the Tencent SMS sender', () => {
  const config: SmsConfig = {
    provider: 'tencent',
    secretId: 'AKIDtest',
    secretKey: 'secret',
    sdkAppId: '1400000001',
    signName: '智慧作业',
    templateId: '200001',
    region: '',
  };

  it('posts a signed SendSms request carrying the code', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchStub = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ Response: { SendStatusSet: [{ Code: 'Ok', Message: 'send success' }] } }));
    }) as unknown as typeof fetch;
    await createTencentSmsSender(config, { fetch: fetchStub, nowSeconds: () => 1_700_000_000 }).send({
      mobile: '13800000001',
      code: '123456',
      purpose: 'login',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://sms.tencentcloudapi.com/');
    const body = JSON.parse(calls[0]!.init.body as string);
    expect(body).toEqual({
      PhoneNumberSet: ['+8613800000001'],
      SmsSdkAppId: '1400000001',
      SignName: '智慧作业',
      TemplateId: '200001',
      TemplateParamSet: ['123456'],
    });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers['X-TC-Action']).toBe('SendSms');
    expect(headers['X-TC-Region']).toBe('ap-guangzhou');
    expect(headers.Authorization).toBe(
      signTc3({
        secretId: 'AKIDtest',
        secretKey: 'secret',
        service: 'sms',
        host: 'sms.tencentcloudapi.com',
        action: 'SendSms',
        version: '2021-01-11',
        region: 'ap-guangzhou',
        payload: calls[0]!.init.body as string,
        timestamp: 1_700_000_000,
      }).authorization,
    );
  });

  it('reports a refusal as a delivery error', async () => {
    const fetchStub = (async () =>
      new Response(
        JSON.stringify({ Response: { Error: { Code: 'AuthFailure.SignatureFailure', Message: 'bad' } } }),
      )) as unknown as typeof fetch;
    await expect(
      createTencentSmsSender(config, { fetch: fetchStub }).send({ mobile: '13800000001', code: '1', purpose: 'login' }),
    ).rejects.toBeInstanceOf(SmsDeliveryError);
  });
});
