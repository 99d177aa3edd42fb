/** Join requests by 学校码: a teacher without a school asks, an admin approves or declines. */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentUserSchema } from '../../../src/shared/contract/auth';
import { joinRequestListSchema, joinRequestSchema, ORG_MESSAGES, schoolDetailSchema } from '../../../src/shared/contract/org';
import { memberships, orgs } from '../../../server/db/schema';
import { failure } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor, createOtherSchool } from '../papers/papers-helper';
import { addUser, demoSchool } from './org-helper';

describe('join requests by school code', () => {
  const app = useTestApp();
  let creator: Caller;
  let teacher: Caller;
  let orgId: number;
  let code: string;

  beforeAll(async () => {
    orgId = (await demoSchool(app())).orgId;
    creator = await callerFor(app(), 'creator');
    teacher = await callerFor(app(), 'teacher');
    code = schoolDetailSchema.parse((await creator({ method: 'GET', url: `/api/org/schools/${orgId}` })).json().data).joinCode!;
  });

  const ask = (caller: Caller, value: string) =>
    caller({ method: 'POST', url: '/api/org/join-requests', payload: { code: value } });

  it('shows the code to admins only', async () => {
    expect(code).toMatch(/^[0-9A-F]{8}$/);
    const [row] = await app().database.db.select({ joinCode: orgs.joinCode }).from(orgs).where(eq(orgs.id, orgId));
    expect(row!.joinCode).toBe(code);
    const seen = schoolDetailSchema.parse((await teacher({ method: 'GET', url: `/api/org/schools/${orgId}` })).json().data);
    expect(seen.joinCode).toBeNull();
  });

  it('lets a teacher ask once, the admin approve, and the teacher work in the school', async () => {
    const askerId = await addUser(app(), 'jr-one', '申请老师');
    const asker = await callerFor(app(), 'jr-one');
    const asked = joinRequestSchema.parse((await ask(asker, ` ${code.toLowerCase()} `)).json().data);
    expect(asked).toMatchObject({ orgId, status: 'pending', nickname: '申请老师', schoolName: '示范中学' });
    // Asking again answers the same pending request.
    expect(joinRequestSchema.parse((await ask(asker, code)).json().data).id).toBe(asked.id);
    const mine = joinRequestListSchema.parse((await asker({ method: 'GET', url: '/api/org/join-requests/mine' })).json().data);
    expect(mine.map((r) => r.id)).toEqual([asked.id]);

    const pendingUrl = `/api/org/schools/${orgId}/join-requests`;
    expect(failure(await teacher({ method: 'GET', url: pendingUrl })).status).toBe(403);
    const pending = joinRequestListSchema.parse((await creator({ method: 'GET', url: pendingUrl })).json().data);
    expect(pending.map((r) => r.id)).toContain(asked.id);

    const decide = (caller: Caller, approve: boolean) =>
      caller({ method: 'POST', url: `${pendingUrl}/${asked.id}/decision`, payload: { approve } });
    expect(failure(await decide(teacher, true)).status).toBe(403);
    expect(joinRequestSchema.parse((await decide(creator, true)).json().data).status).toBe('approved');
    expect(failure(await decide(creator, false))).toEqual({ status: 409, msg: ORG_MESSAGES.joinRequestDecided });
    const me = currentUserSchema.parse((await asker({ method: 'GET', url: '/api/user/info' })).json().data);
    expect(me.userGradeInfo.orgDefaultId).toBe(orgId);
    const [member] = await app().database.db.select().from(memberships).where(eq(memberships.userId, askerId));
    expect(member).toMatchObject({ orgId, role: 'teacher' });
    expect(failure(await ask(asker, code))).toEqual({ status: 400, msg: ORG_MESSAGES.alreadyMember });
  });

  it('declines without making a member, and refuses unknown or malformed codes', async () => {
    const askerId = await addUser(app(), 'jr-two', '被拒老师');
    const asker = await callerFor(app(), 'jr-two');
    const asked = joinRequestSchema.parse((await ask(asker, code)).json().data);
    const decided = await creator({
      method: 'POST',
      url: `/api/org/schools/${orgId}/join-requests/${asked.id}/decision`,
      payload: { approve: false },
    });
    expect(joinRequestSchema.parse(decided.json().data).status).toBe('declined');
    expect(await app().database.db.select().from(memberships).where(eq(memberships.userId, askerId))).toEqual([]);
    expect(failure(await ask(asker, 'ZZZZZZZZ'))).toEqual({ status: 400, msg: ORG_MESSAGES.joinCodeUnknown });
    expect(failure(await ask(asker, '12')).status).toBe(400);
    // Another school's creator finds nothing here; no session is 401.
    const other = await createOtherSchool(app());
    expect(failure(await other.call({ method: 'GET', url: `/api/org/schools/${orgId}/join-requests` })).status).toBe(404);
    expect((await app().inject({ method: 'GET', url: `/api/org/schools/${orgId}/join-requests` })).statusCode).toBe(401);
  });
});
