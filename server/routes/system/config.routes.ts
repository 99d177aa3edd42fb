import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import { type ClientConfig, clientConfigSchema } from '../../../src/shared/contract/system';
import type { Config } from '../../config';
import { ok } from '../../plugins/envelope';

export type ConfigRoutesOptions = {
  config: Pick<
    Config,
    'imageBaseUrl' | 'websocketBaseUrl' | 'captchaSiteKey' | 'messagingAppId' | 'dwtProductKey' | 'filingNumber'
  >;
};

export default async function configRoutes(fastify: FastifyInstance, { config }: ConfigRoutesOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const clientConfig: ClientConfig = {
    imageBaseUrl: config.imageBaseUrl,
    websocketBaseUrl: config.websocketBaseUrl,
    captchaSiteKey: config.captchaSiteKey,
    messagingAppId: config.messagingAppId,
    dwtProductKey: config.dwtProductKey,
    filingNumber: config.filingNumber,
  };
  app.get('/config', { schema: { response: { 200: envelopeSchema(clientConfigSchema) } } }, async () => ok(clientConfig));
}
