/**
 * Pairing and managing wall screens. A new screen asks for a pairing (a 6-digit code to show, a secret
 * to keep); an admin or grade director types the code in the portal with the screen's name, scope and
 * panels; the screen's next collect (with its secret) receives a random display token, of which only
 * the hash is stored. The token opens the display's snapshot and socket rooms, nothing else. Renaming or
 * re-scoping tells the screen's sockets to reconnect; revoking deletes the screen and disconnects them.
 * Who may: the permission module's `screen.manage`.
 */
import { randomInt } from 'node:crypto';
import type { z } from 'zod';
import { and, eq, gt, inArray, isNull, lte } from 'drizzle-orm';
import {
  DISPLAY_TOKEN_PREFIX,
  PAIRING_CODE_LENGTH,
  PAIRING_TTL_MS,
  SCREEN_MESSAGES,
  type PairingCollectResult,
  type Screen,
  type ScreenOptions,
  type ScreenPairing,
  type screenCreateSchema,
  type screenUpdateSchema,
} from '../../../src/shared/contract/large-screen';
import { SCREEN_PANELS } from '../../../src/shared/contract/large-screen';
import { CLASS_TYPE } from '../../../src/shared/contract/system';
import type { Db } from '../../db/client';
import { classes, screenPairings, screens } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import type { Clock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/secrets';
import { assertCan, can, isManager, loadActor, type Actor } from '../org/permissions';
import { namesAllowedForYears, scopeLabelOf, type ScreenRow } from './screen-scope';

export type ScreenEvents = {
  /** The screen's scope or panels changed: its sockets should reconnect and reload. */
  updated: (screenId: number) => void;
  /** The screen was revoked: its sockets are told and disconnected at once. */
  revoked: (screenId: number) => void;
};

export type ScreenService = ReturnType<typeof createScreenService>;

type Row = typeof screens.$inferSelect;

export function createScreenService({ db, now, events }: { db: Db; now: Clock; events: ScreenEvents }) {
  const treeOf = (orgId: number) =>
    db
      .select({ id: classes.id, name: classes.name, pid: classes.pid, type: classes.type })
      .from(classes)
      .where(eq(classes.orgId, orgId));

  async function toScreen(row: Row, tree?: Awaited<ReturnType<typeof treeOf>>): Promise<Screen> {
    return {
      id: row.id,
      name: row.name,
      scopeKind: row.scopeKind as Screen['scopeKind'],
      schoolYearId: row.schoolYearId,
      classId: row.classId,
      scopeLabel: scopeLabelOf(tree ?? (await treeOf(row.orgId)), row),
      panels: SCREEN_PANELS.filter((p) => row.panels.includes(p)),
      showNames: row.showNames,
      connected: row.tokenHash !== null,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    };
  }

  /** Checks the scope against the school and the actor; answers the columns to store. */
  async function resolveScope(actor: Actor, input: z.output<typeof screenUpdateSchema>) {
    const tree = await treeOf(actor.orgId);
    let schoolYearId: number | null = null;
    let classId: number | null = null;
    if (input.scopeKind === 'schoolYear') {
      if (!input.schoolYearId) throw ApiError.badRequest(SCREEN_MESSAGES.scopeMissing);
      const year = tree.find((c) => c.id === input.schoolYearId && c.type === CLASS_TYPE.schoolYear);
      if (!year) throw ApiError.notFound();
      schoolYearId = year.id;
    } else if (input.scopeKind === 'class') {
      if (!input.classId) throw ApiError.badRequest(SCREEN_MESSAGES.scopeMissing);
      const klass = tree.find((c) => c.id === input.classId && c.type === CLASS_TYPE.klass);
      if (!klass) throw ApiError.notFound();
      classId = klass.id;
      schoolYearId = klass.pid;
    }
    assertCan(actor, { kind: 'screen.manage', schoolYearId: input.scopeKind === 'school' ? null : schoolYearId });
    // Names and ranks only where the school year allows publishing them (高中; never 小学/初中 by default).
    if (input.showNames && (schoolYearId === null || !(await namesAllowedForYears(db, actor.orgId)).get(schoolYearId))) {
      throw ApiError.badRequest(SCREEN_MESSAGES.namesNotAllowed);
    }
    return {
      name: input.name,
      scopeKind: input.scopeKind,
      schoolYearId,
      classId,
      panels: SCREEN_PANELS.filter((p) => input.panels.includes(p)),
      showNames: input.showNames ?? false,
    };
  }

  /** A screen of the actor's school they may manage; another school's or out of reach: 404 / 403. */
  async function managed(actor: Actor, id: number): Promise<Row> {
    const [row] = await db
      .select()
      .from(screens)
      .where(and(eq(screens.id, id), eq(screens.orgId, actor.orgId)));
    if (!row) throw ApiError.notFound();
    assertCan(actor, { kind: 'screen.manage', schoolYearId: row.schoolYearId });
    return row;
  }

  async function managerOf(userId: number): Promise<Actor> {
    const actor = await loadActor(db, userId);
    if (!isManager(actor) && actor.gradeDirectorOf.length === 0) throw ApiError.forbidden();
    return actor;
  }

  return {
    async requestPairing(): Promise<ScreenPairing> {
      const at = now();
      await db.delete(screenPairings).where(and(lte(screenPairings.expiresAt, at), isNull(screenPairings.screenId)));
      const live = await db.select({ code: screenPairings.code }).from(screenPairings).where(gt(screenPairings.expiresAt, at));
      const taken = new Set(live.map((row) => row.code));
      let code = '';
      do code = String(randomInt(0, 10 ** PAIRING_CODE_LENGTH)).padStart(PAIRING_CODE_LENGTH, '0');
      while (taken.has(code));
      const secret = randomToken(24);
      const expiresAt = new Date(at.getTime() + PAIRING_TTL_MS);
      await db.insert(screenPairings).values({ code, secretHash: sha256Hex(secret), expiresAt });
      return { code, secret, expiresAt: expiresAt.toISOString() };
    },

    /** The screen asks whether it was paired; the token is handed out once and only its hash kept. */
    async collect(secret: string): Promise<PairingCollectResult> {
      const [pairing] = await db
        .select()
        .from(screenPairings)
        .where(eq(screenPairings.secretHash, sha256Hex(secret)));
      if (!pairing) return { status: 'expired', token: null };
      if (pairing.screenId !== null) {
        const token = `${DISPLAY_TOKEN_PREFIX}${randomToken(32)}`;
        await db.transaction(async (tx) => {
          await tx
            .update(screens)
            .set({ tokenHash: sha256Hex(token), lastSeenAt: now() })
            .where(eq(screens.id, pairing.screenId!));
          await tx.delete(screenPairings).where(eq(screenPairings.id, pairing.id));
        });
        return { status: 'paired', token };
      }
      if (pairing.expiresAt.getTime() <= now().getTime()) {
        await db.delete(screenPairings).where(eq(screenPairings.id, pairing.id));
        return { status: 'expired', token: null };
      }
      return { status: 'waiting', token: null };
    },

    async list(userId: number): Promise<Screen[]> {
      const actor = await managerOf(userId);
      const rows = await db.select().from(screens).where(eq(screens.orgId, actor.orgId)).orderBy(screens.id);
      const tree = await treeOf(actor.orgId);
      return Promise.all(
        rows
          .filter((row) => can(actor, { kind: 'screen.manage', schoolYearId: row.schoolYearId }))
          .map((row) => toScreen(row, tree)),
      );
    },

    async options(userId: number): Promise<ScreenOptions> {
      const actor = await managerOf(userId);
      const [tree, namesAllowed] = await Promise.all([treeOf(actor.orgId), namesAllowedForYears(db, actor.orgId)]);
      return {
        wholeSchool: isManager(actor),
        schoolYears: tree
          .filter((c) => c.type === CLASS_TYPE.schoolYear && can(actor, { kind: 'screen.manage', schoolYearId: c.id }))
          .map((year) => ({
            id: year.id,
            name: year.name,
            namesAllowed: namesAllowed.get(year.id) ?? false,
            classes: tree
              .filter((c) => c.type === CLASS_TYPE.klass && c.pid === year.id)
              .map((c) => ({ id: c.id, name: c.name })),
          })),
      };
    },

    async create(userId: number, input: z.output<typeof screenCreateSchema>): Promise<Screen> {
      const actor = await managerOf(userId);
      const values = await resolveScope(actor, input);
      // Everything inside the transaction goes through `tx` (PGlite has one connection).
      const row = await db.transaction(async (tx) => {
        const [pairing] = await tx
          .select()
          .from(screenPairings)
          .where(and(eq(screenPairings.code, input.code), gt(screenPairings.expiresAt, now()), isNull(screenPairings.screenId)))
          .for('update');
        if (!pairing) throw ApiError.badRequest(SCREEN_MESSAGES.codeInvalid);
        const [inserted] = await tx
          .insert(screens)
          .values({ ...values, orgId: actor.orgId, createdBy: userId })
          .returning();
        await tx.update(screenPairings).set({ screenId: inserted!.id }).where(eq(screenPairings.id, pairing.id));
        return inserted!;
      });
      return toScreen(row);
    },

    async update(userId: number, id: number, input: z.output<typeof screenUpdateSchema>): Promise<Screen> {
      const actor = await managerOf(userId);
      await managed(actor, id);
      const values = await resolveScope(actor, input);
      const [row] = await db.update(screens).set(values).where(eq(screens.id, id)).returning();
      events.updated(id);
      return toScreen(row!);
    },

    async revoke(userId: number, id: number): Promise<{ id: number }> {
      const actor = await managerOf(userId);
      await managed(actor, id);
      await db.delete(screens).where(eq(screens.id, id));
      events.revoked(id);
      return { id };
    },

    /** The screen holding this display token, or null (unknown, revoked, not a display token). */
    async authenticate(token: string): Promise<ScreenRow | null> {
      if (!token.startsWith(DISPLAY_TOKEN_PREFIX) || token.length > 256) return null;
      const [row] = await db
        .select()
        .from(screens)
        .where(eq(screens.tokenHash, sha256Hex(token)));
      if (!row) return null;
      const at = now();
      // Seen at most once a minute per screen, so a busy display does not write on every request.
      if (!row.lastSeenAt || at.getTime() - row.lastSeenAt.getTime() > 60_000) {
        await db
          .update(screens)
          .set({ lastSeenAt: at })
          .where(inArray(screens.id, [row.id]));
      }
      return row;
    },
  };
}
