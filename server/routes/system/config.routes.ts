import type { FastifyInstance } from 'fastify';
import type { ClientConfig } from '../../../src/shared/contract/system';
import type { Config } from '../../config';
import { ok } from '../../plugins/envelope';

export type ConfigRoutesOptions = {
  config: Pick<Config, 'imageBaseUrl' | 'websocketBaseUrl' | 'captchaSiteKey' | 'messagingAppId' | 'dwtProductKey'>;
};

export default async function configRoutes(app: FastifyInstance, { config }: ConfigRoutesOptions) {
  const clientConfig: ClientConfig = {
    imageBaseUrl: config.imageBaseUrl,
    websocketBaseUrl: config.websocketBaseUrl,
    captchaSiteKey: config.captchaSiteKey,
    messagingAppId: config.messagingAppId,
    dwtProductKey: config.dwtProductKey,
  };
  app.get('/config', async () => ok(clientConfig));
}
