/**
 * The teacher portal's session runtime, a chunk of its own (see deferPortalServices): the HTTP client,
 * the session actor and the school-year machine (portal-runtime.ts), and the client configuration, made
 * into the portal's services.
 */
import type { PortalServices } from '../src/features/portal/portal-services';
import { clientConfigSchema, type ClientConfig } from '../src/shared/contract/system';
import { createPortalRuntime } from './portal-runtime';

const DEFAULT_CONFIG: ClientConfig = {
  imageBaseUrl: '/files/',
  websocketBaseUrl: '',
  captchaSiteKey: '',
  messagingAppId: '',
  dwtProductKey: '',
  filingNumber: '',
};

export async function startPortalRuntime({ goHome }: { goHome: () => void }): Promise<PortalServices> {
  const { http, portalServices } = createPortalRuntime({ goHome });
  const config = await http
    .get('/api/config', undefined, { schema: clientConfigSchema, silent: true })
    .catch(() => DEFAULT_CONFIG);
  return { ...portalServices(config.imageBaseUrl), filingNumber: config.filingNumber };
}
