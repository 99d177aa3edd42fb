/**
 * Security headers plugin (@fastify/helmet): a Content-Security-Policy for the three pages (portal, scan
 * station, wall display) that runs only the build's own scripts (no inline script, no eval; WebAssembly
 * for pdf.js' image codecs), X-Content-Type-Options: nosniff, no framing (frame-ancestors 'none' and
 * X-Frame-Options: DENY) and Referrer-Policy, on every answer. API answers are never stored by a cache
 * (`Cache-Control: no-store`, RFC 6749 section 5.1 for those carrying tokens) unless a route chose
 * otherwise (stored scan images).
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { isApiPath } from './envelope';

export type SecurityHeadersOptions = Pick<Config, 'imageBaseUrl' | 'websocketBaseUrl'>;

/** Dynamic Web TWAIN's local scanning service, which scan pages talk to (see its Port and SSLPort). */
const DWT_SERVICE = [
  'http://127.0.0.1:18622',
  'ws://127.0.0.1:18622',
  'https://127.0.0.1:18623',
  'wss://127.0.0.1:18623',
  'https://local.dynamsoft.com:18623',
  'wss://local.dynamsoft.com:18623',
];

const originOf = (url: string): string[] => {
  try {
    return /^(https?|wss?):\/\//.test(url) ? [new URL(url).origin] : [];
  } catch {
    return [];
  }
};

/** The CSP directives; exported for the test that loads the built pages under them. */
export function cspDirectives(options: SecurityHeadersOptions): Record<string, string[]> {
  const imageHost = originOf(options.imageBaseUrl);
  const socketHost = originOf(options.websocketBaseUrl);
  const socketWs = socketHost.map((origin) => origin.replace(/^http/, 'ws'));
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    // Semi UI and ECharts set element styles at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...imageHost],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", 'blob:', 'data:', ...socketHost, ...socketWs, ...DWT_SERVICE],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

async function securityHeadersPlugin(app: FastifyInstance, options: SecurityHeadersOptions) {
  await app.register(helmet, {
    // useDefaults off: its upgrade-insecure-requests would break a school serving plain HTTP on its LAN.
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
    crossOriginEmbedderPolicy: false,
    // Images may be shown by pages of another origin the school runs (IMAGE_BASE_URL on a CDN is theirs).
    crossOriginResourcePolicy: { policy: 'same-site' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Whether the site is HTTPS-only is the deployment's decision (its reverse proxy sets HSTS).
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.raw.url ?? '') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
      reply.header('pragma', 'no-cache');
    }
    return payload;
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
