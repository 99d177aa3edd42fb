/**
 * Student names on a wall screen (the law on compulsory education): a screen shows none unless it was
 * turned on for it and the school year allows it (analysis's ranksAllowed, read again on every snapshot),
 * and turning it on where the year does not allow it is refused with the reason and changes nothing.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classes, screens, students } from '../../../server/db/schema';
import { seedSemesterForSchool } from '../../../server/db/seed-semester';
import {
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  SCREEN_MESSAGES,
  screenPairingSchema,
  screenSchema,
  type LargeScreenSnapshot,
  type ScreenCreate,
} from '../../../src/shared/contract/large-screen';
import { bearer, failure } from '../accounts-helper';
import { callerFor, createMarkingApp, data, type Caller, type MarkingApp } from '../marking/marking-helper';

describe('student names on a wall screen', () => {
  let handle: MarkingApp;
  let creator: Caller;
  let yearId: number;
  let roster: string[];
  const app = () => handle.app;

  beforeAll(async () => {
    handle = await createMarkingApp();
    creator = await callerFor(app(), 'creator');
    await seedSemesterForSchool(app().database.db, creator.orgId);
    const [year] = await app()
      .database.db.select()
      .from(classes)
      .where(and(eq(classes.orgId, creator.orgId), eq(classes.type, 1), sql`${classes.name} like '%初一%'`));
    yearId = year!.id;
    roster = (
      await app().database.db.select({ name: students.name }).from(students).where(eq(students.orgId, creator.orgId))
    ).map((s) => s.name);
  }, 300_000);
  afterAll(async () => {
    await handle?.close();
  });

  const setYearRanks = (enabled: boolean | null) =>
    app().database.db.update(classes).set({ ranksEnabled: enabled }).where(eq(classes.id, yearId));

  async function pairResponse(input: Partial<ScreenCreate>) {
    const { code, secret } = screenPairingSchema.parse(
      data(await app().inject({ method: 'POST', url: '/api/screens/pairings' })),
    );
    const response = await creator({
      method: 'POST',
      url: '/api/screens',
      payload: { code, name: '初一走廊', scopeKind: 'schoolYear', schoolYearId: yearId, panels: ['results'], ...input },
    });
    return { response, secret };
  }
  async function paired(input: Partial<ScreenCreate>) {
    const { response, secret } = await pairResponse(input);
    const screen = screenSchema.parse(data(response));
    const { token } = pairingCollectResultSchema.parse(
      data(await app().inject({ method: 'POST', url: '/api/screens/pairings/collect', payload: { secret } })),
    );
    return { screen, token: token! };
  }
  const snapshotOf = async (token: string): Promise<LargeScreenSnapshot> =>
    largeScreenSnapshotSchema.parse(
      data(await app().inject({ method: 'GET', url: '/api/largescreen/snapshot', headers: bearer(token) })),
    );
  const namesIn = (view: LargeScreenSnapshot) => {
    const text = JSON.stringify(view);
    return roster.filter((name) => text.includes(`"${name}"`));
  };

  it('shows no student’s name by default, and refuses names where the school year does not allow them (初中)', async () => {
    const plain = await paired({});
    const view = await snapshotOf(plain.token);
    expect(view.results, 'the seeded semester has scored homework').not.toBeNull();
    expect(view.results!.topStudents).toBeNull();
    expect(namesIn(view)).toEqual([]);

    const { response } = await pairResponse({ showNames: true });
    expect(failure(response)).toEqual({ status: 400, msg: SCREEN_MESSAGES.namesNotAllowed });
    // Turning it on later is refused the same way, and the screen stays as it was.
    const refused = await creator({
      method: 'PUT',
      url: `/api/screens/${plain.screen.id}`,
      payload: { name: '改名', scopeKind: 'schoolYear', schoolYearId: yearId, panels: ['results'], showNames: true },
    });
    expect(failure(refused)).toEqual({ status: 400, msg: SCREEN_MESSAGES.namesNotAllowed });
    const [row] = await app().database.db.select().from(screens).where(eq(screens.id, plain.screen.id));
    expect(row).toMatchObject({ name: '初一走廊', showNames: false });
  });

  it('shows names where the school allows them for the year and the screen turned them on, and stops when the year no longer allows them', async () => {
    await setYearRanks(true);
    const options = data<{ schoolYears: { id: number; namesAllowed: boolean }[] }>(
      await creator({ method: 'GET', url: '/api/screens/options' }),
    );
    expect(options.schoolYears.find((y) => y.id === yearId)!.namesAllowed).toBe(true);
    const named = await paired({ showNames: true });
    const unnamed = await paired({});
    expect(named.screen.showNames).toBe(true);

    const view = await snapshotOf(named.token);
    const top = view.results!.topStudents!;
    expect(top.length).toBeGreaterThan(0);
    expect(top.every((s) => roster.includes(s.name) && s.className !== '')).toBe(true);
    expect(top.map((s) => s.scoreRate)).toEqual([...top.map((s) => s.scoreRate)].sort((a, b) => b - a));
    // The screen beside it, names off, shows none.
    expect(namesIn(await snapshotOf(unnamed.token))).toEqual([]);

    // The school turns ranks off for the year: the screen stops at its next snapshot, and cannot be turned on again.
    await setYearRanks(false);
    expect(namesIn(await snapshotOf(named.token))).toEqual([]);
    const again = await creator({
      method: 'PUT',
      url: `/api/screens/${unnamed.screen.id}`,
      payload: { name: '初一走廊', scopeKind: 'schoolYear', schoolYearId: yearId, panels: ['results'], showNames: true },
    });
    expect(failure(again).msg).toBe(SCREEN_MESSAGES.namesNotAllowed);
    await setYearRanks(null);
  });
});
