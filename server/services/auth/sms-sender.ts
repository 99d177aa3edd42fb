/**
 * How SMS codes leave the server. chooseSmsSender picks one from the configuration: Tencent Cloud SMS
 * (API 3.0, TC3-HMAC-SHA256 signed, over fetch), the server log (development and demos), or none (a
 * production server without a provider: the features needing SMS then say so instead of pretending).
 */
import { createHash, createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SmsPurpose } from '../../../src/shared/contract/auth';
import type { SmsConfig } from '../../config';

export type SmsMessage = { mobile: string; code: string; purpose: SmsPurpose };

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** Thrown by a provider that refused or could not be reached; the SMS service turns it into a message. */
export class SmsDeliveryError extends Error {}

export function createLogSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async send({ mobile, code, purpose }) {
      log.info({ purpose }, `[sms] ${mobile} ${code}`);
    },
  };
}

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

export type Tc3Request = {
  secretId: string;
  secretKey: string;
  service: string;
  host: string;
  action: string;
  version: string;
  region: string;
  /** The exact JSON body that is sent. */
  payload: string;
  /** Unix seconds. */
  timestamp: number;
};

/**
 * Tencent Cloud API 3.0 request signing (TC3-HMAC-SHA256, POST with a JSON body, signed headers
 * content-type and host), as documented at https://cloud.tencent.com/document/api/213/30654.
 */
export function signTc3(request: Tc3Request): { authorization: string; headers: Record<string, string> } {
  const contentType = 'application/json; charset=utf-8';
  const date = new Date(request.timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${contentType}\nhost:${request.host}\n`,
    'content-type;host',
    sha256Hex(request.payload),
  ].join('\n');
  const scope = `${date}/${request.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${request.secretKey}`, date), request.service), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  const authorization = `TC3-HMAC-SHA256 Credential=${request.secretId}/${scope}, SignedHeaders=content-type;host, Signature=${signature}`;
  return {
    authorization,
    headers: {
      Authorization: authorization,
      'Content-Type': contentType,
      Host: request.host,
      'X-TC-Action': request.action,
      'X-TC-Version': request.version,
      'X-TC-Timestamp': String(request.timestamp),
      'X-TC-Region': request.region,
    },
  };
}

const TENCENT_SMS_HOST = 'sms.tencentcloudapi.com';

/** Tencent Cloud SMS SendSms (2021-01-11); the template takes the code as its first parameter. */
export function createTencentSmsSender(
  config: SmsConfig,
  deps: { fetch?: typeof fetch; nowSeconds?: () => number } = {},
): SmsSender {
  const doFetch = deps.fetch ?? fetch;
  const nowSeconds = deps.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  return {
    async send({ mobile, code }) {
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: config.sdkAppId,
        SignName: config.signName,
        TemplateId: config.templateId,
        TemplateParamSet: [code],
      });
      const { headers } = signTc3({
        secretId: config.secretId,
        secretKey: config.secretKey,
        service: 'sms',
        host: TENCENT_SMS_HOST,
        action: 'SendSms',
        version: '2021-01-11',
        region: config.region || 'ap-guangzhou',
        payload,
        timestamp: nowSeconds(),
      });
      let body: unknown;
      try {
        const response = await doFetch(`https://${TENCENT_SMS_HOST}/`, {
          method: 'POST',
          headers,
          body: payload,
          signal: AbortSignal.timeout(10_000),
        });
        body = await response.json();
      } catch (error) {
        throw new SmsDeliveryError(`Tencent SMS unreachable: ${(error as Error).message}`);
      }
      const answer = (
        body as {
          Response?: { Error?: { Code?: string; Message?: string }; SendStatusSet?: { Code?: string; Message?: string }[] };
        }
      ).Response;
      if (answer?.Error) throw new SmsDeliveryError(`Tencent SMS error ${answer.Error.Code}: ${answer.Error.Message}`);
      const status = answer?.SendStatusSet?.[0];
      if (status?.Code !== 'Ok') throw new SmsDeliveryError(`Tencent SMS refused: ${status?.Code} ${status?.Message}`);
    },
  };
}

/**
 * The configured sender, or null when SMS cannot be delivered (production without a provider). Outside
 * production an unset SMS_PROVIDER writes codes to the log.
 */
export function chooseSmsSender(
  config: SmsConfig,
  nodeEnv: 'development' | 'production' | 'test',
  log: FastifyBaseLogger,
): SmsSender | null {
  if (config.provider === 'tencent') return createTencentSmsSender(config);
  if (config.provider === 'log' || nodeEnv !== 'production') return createLogSmsSender(log);
  return null;
}
