/**
 * How SMS codes leave the server. A real gateway implements SmsSender and is passed to buildApp; the
 * default writes the code to the server log, which is all a development machine or a demo needs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { SmsPurpose } from '../../../src/shared/contract/auth';

export type SmsMessage = { mobile: string; code: string; purpose: SmsPurpose };

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export function createLogSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    async send({ mobile, code, purpose }) {
      log.info({ purpose }, `[sms] ${mobile} ${code}`);
    },
  };
}
