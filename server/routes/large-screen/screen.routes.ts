/**
 * Wall screens: a screen asks for a pairing code and collects its display token (no login); admins and
 * grade directors pair, list, rename, re-scope and revoke screens; the display (display token) or a
 * teacher projecting /largescreen (access token) reads the snapshot. A display token opens the snapshot
 * only: every other route authenticates teachers' tokens and answers it 401.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UNAUTHORIZED_MESSAGE } from '../../../src/shared/contract/auth';
import { envelopeSchema } from '../../../src/shared/contract/envelope';
import {
  DISPLAY_TOKEN_PREFIX,
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  pairingCollectSchema,
  screenCreateSchema,
  screenListSchema,
  screenOptionsSchema,
  screenPairingSchema,
  screenSchema,
  screenUpdateSchema,
} from '../../../src/shared/contract/large-screen';
import { idParamsSchema, idSchema, noBodySchema } from '../../../src/shared/contract/primitives';
import { ApiError } from '../../lib/api-error';
import { requireAuth } from '../../plugins/auth';
import { ok } from '../../plugins/envelope';
import { scopeOfScreen, scopeOfUser, type ScreenScope } from '../../services/large-screen/screen-scope';
import type { RateLimitedRouteOptions } from '../route-options';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** A screen polls for its token every few seconds while its code is shown. */
const COLLECTS_PER_MINUTE = 120;

const schemas = {
  pair: { body: noBodySchema, response: { 200: envelopeSchema(screenPairingSchema) } },
  collect: { body: pairingCollectSchema, response: { 200: envelopeSchema(pairingCollectResultSchema) } },
  list: { response: { 200: envelopeSchema(screenListSchema) } },
  options: { response: { 200: envelopeSchema(screenOptionsSchema) } },
  create: { body: screenCreateSchema, response: { 200: envelopeSchema(screenSchema) } },
  update: { params: idParamsSchema, body: screenUpdateSchema, response: { 200: envelopeSchema(screenSchema) } },
  revoke: { params: idParamsSchema, response: { 200: envelopeSchema(z.object({ id: idSchema })) } },
  snapshot: { response: { 200: envelopeSchema(largeScreenSnapshotSchema) } },
};

export default async function screenRoutes(fastify: FastifyInstance, options: RateLimitedRouteOptions) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const authenticated = { preHandler: app.authenticate };
  const { service, snapshots } = app.screens;

  app.post('/screens/pairings', { config: { rateLimit: options.rateLimit }, schema: schemas.pair }, async () =>
    ok(await service.requestPairing()),
  );

  app.post(
    '/screens/pairings/collect',
    { config: { rateLimit: { max: COLLECTS_PER_MINUTE, timeWindow: 60_000 } }, schema: schemas.collect },
    async (request) => ok(await service.collect(request.body.secret)),
  );

  app.get('/screens', { ...authenticated, schema: schemas.list }, async (request) =>
    ok(await service.list(requireAuth(request).userId)),
  );

  app.get('/screens/options', { ...authenticated, schema: schemas.options }, async (request) =>
    ok(await service.options(requireAuth(request).userId)),
  );

  // Typing a code is limited per IP like a login: 6-digit codes can be guessed.
  app.post('/screens', { ...authenticated, config: { rateLimit: options.rateLimit }, schema: schemas.create }, async (request) =>
    ok(await service.create(requireAuth(request).userId, request.body)),
  );

  app.put('/screens/:id', { ...authenticated, schema: schemas.update }, async (request) =>
    ok(await service.update(requireAuth(request).userId, request.params.id, request.body)),
  );

  app.delete('/screens/:id', { ...authenticated, schema: schemas.revoke }, async (request) =>
    ok(await service.revoke(requireAuth(request).userId, request.params.id)),
  );

  /** The display's scope from its token, or the teacher's own (visibleScope). */
  async function scopeOf(request: FastifyRequest): Promise<ScreenScope> {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (token.startsWith(DISPLAY_TOKEN_PREFIX)) {
      const screen = await service.authenticate(token);
      if (!screen) throw ApiError.unauthorized(UNAUTHORIZED_MESSAGE);
      return scopeOfScreen(app.database.db, screen);
    }
    await app.authenticate(request);
    return scopeOfUser(app.database.db, requireAuth(request).userId);
  }

  app.get('/largescreen/snapshot', { schema: schemas.snapshot }, async (request) =>
    ok(await snapshots.snapshot(await scopeOf(request))),
  );
}
