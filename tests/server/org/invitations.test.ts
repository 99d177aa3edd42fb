/**
 * Invitation lifecycle: made by an admin, looked up without a login, accepted once per person, used up,
 * expired, revoked, and the last use taken by exactly one of two people accepting at once.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentUserSchema } from '../../../src/shared/contract/auth';
import {
  ORG_MESSAGES,
  invitationListSchema,
  invitationPreviewSchema,
  invitationSchema,
  memberListSchema,
} from '../../../src/shared/contract/org';
import { failure, fakeClock } from '../accounts-helper';
import { useTestApp } from '../helper';
import { type Caller, callerFor } from '../papers/papers-helper';
import { addUser, demoSchool } from './org-helper';

const clock = fakeClock();

describe('invitations', () => {
  const app = useTestApp({ now: clock.now });
  let creator: Caller;
  let school: Awaited<ReturnType<typeof demoSchool>>;
  let counter = 0;

  beforeAll(async () => {
    creator = await callerFor(app(), 'creator');
    school = await demoSchool(app());
  });

  async function invite(payload: Record<string, unknown> = {}) {
    const response = await creator({ method: 'POST', url: `/api/org/schools/${school.orgId}/invitations`, payload });
    expect(response.json().msg).toBe('操作成功');
    return invitationSchema.parse(response.json().data);
  }

  async function stranger(a: FastifyInstance = app()): Promise<Caller> {
    counter += 1;
    await addUser(a, `guest${counter}`, `客人${counter}`);
    return callerFor(a, `guest${counter}`);
  }

  const accept = (call: Caller, body: Record<string, string>) =>
    call({ method: 'POST', url: '/api/invitations/accept', payload: body });

  it('makes a link token and a 6-digit code, 7 days and one use by default', async () => {
    const invitation = await invite();
    expect(invitation.code).toMatch(/^\d{6}$/);
    expect(invitation.token.length).toBeGreaterThanOrEqual(16);
    expect(invitation.maxUses).toBe(1);
    expect(new Date(invitation.expiresAt).getTime() - clock.now().getTime()).toBe(7 * 24 * 3600 * 1000);
    expect(invitation.status).toBe('active');
  });

  it('shows what it offers without a login, by link or by code', async () => {
    const invitation = await invite({ role: 'admin' });
    for (const query of [`token=${invitation.token}`, `code=${invitation.code}`]) {
      const response = await app().inject({ method: 'GET', url: `/api/invitations/preview?${query}` });
      const preview = invitationPreviewSchema.parse(response.json().data);
      expect(preview).toMatchObject({ schoolName: '示范中学', inviterName: '张校长', role: 'admin', status: 'active' });
    }
    const unknown = await app().inject({ method: 'GET', url: '/api/invitations/preview?token=AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(failure(unknown)).toEqual({ status: 400, msg: ORG_MESSAGES.invitationNotFound });
    const bad = await app().inject({ method: 'GET', url: '/api/invitations/preview?code=12' });
    expect(bad.statusCode).toBe(400);
  });

  it('joins the school with the preset role and teaching, and makes it the default school', async () => {
    const invitation = await invite({
      role: 'teacher',
      schoolYearId: school.schoolYearId,
      classIds: school.classIds.slice(0, 2),
      subjectIds: [school.mathId],
      maxUses: 3,
    });
    const guest = await stranger();
    const response = await accept(guest, { token: invitation.token });
    const user = currentUserSchema.parse(response.json().data);
    expect(user.userGradeInfo).toMatchObject({
      orgDefaultId: school.orgId,
      isCreator: false,
      classDefaultId: school.schoolYearId,
    });
    const members = memberListSchema.parse(
      (await creator({ method: 'GET', url: `/api/org/schools/${school.orgId}/members` })).json().data,
    );
    const joined = members.find((m) => m.userId === user.id)!;
    expect(joined.role).toBe('teacher');
    expect(joined.assignments).toEqual(school.classIds.slice(0, 2).map((classId) => ({ classId, subjectId: school.mathId })));
    // A second accept by the same person is refused and uses nothing.
    expect(failure(await accept(guest, { code: invitation.code }))).toEqual({ status: 400, msg: ORG_MESSAGES.alreadyMember });
    const listed = invitationListSchema.parse(
      (await creator({ method: 'GET', url: `/api/org/schools/${school.orgId}/invitations` })).json().data,
    );
    expect(listed.find((i) => i.id === invitation.id)!.usedCount).toBe(1);
  });

  it('is used up after its number of uses', async () => {
    const invitation = await invite({ maxUses: 1 });
    expect((await accept(await stranger(), { token: invitation.token })).statusCode).toBe(200);
    expect(failure(await accept(await stranger(), { token: invitation.token }))).toEqual({
      status: 400,
      msg: ORG_MESSAGES.invitationUsedUp,
    });
    const preview = await app().inject({ method: 'GET', url: `/api/invitations/preview?token=${invitation.token}` });
    expect(preview.json().data.status).toBe('usedUp');
  });

  it('stops working once revoked', async () => {
    const invitation = await invite({ maxUses: 5 });
    const revoked = await creator({
      method: 'POST',
      url: `/api/org/schools/${school.orgId}/invitations/${invitation.id}/revoke`,
    });
    expect(invitationSchema.parse(revoked.json().data).status).toBe('revoked');
    expect(failure(await accept(await stranger(), { token: invitation.token }))).toEqual({
      status: 400,
      msg: ORG_MESSAGES.invitationRevoked,
    });
  });

  it('gives its last use to exactly one of two people accepting at once', async () => {
    const invitation = await invite({ maxUses: 2 });
    expect((await accept(await stranger(), { token: invitation.token })).statusCode).toBe(200);
    const [first, second] = [await stranger(), await stranger()];
    const answers = await Promise.all([accept(first, { token: invitation.token }), accept(second, { token: invitation.token })]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.statusCode === 400)!.json().msg).toBe(ORG_MESSAGES.invitationUsedUp);
    const listed = invitationListSchema.parse(
      (await creator({ method: 'GET', url: `/api/org/schools/${school.orgId}/invitations` })).json().data,
    );
    expect(listed.find((i) => i.id === invitation.id)!.usedCount).toBe(2);
  });

  it('expires after its days', async () => {
    const invitation = await invite({ expiresInDays: 1, maxUses: 5 });
    const guest = await stranger();
    clock.advanceSeconds(24 * 3600 + 1);
    const preview = await app().inject({ method: 'GET', url: `/api/invitations/preview?code=${invitation.code}` });
    expect(preview.json().data.status).toBe('expired');
    // The guest's access token has expired with the clock too: log in again.
    const again = await callerFor(app(), `guest${counter}`);
    void guest;
    expect(failure(await accept(again, { token: invitation.token }))).toEqual({
      status: 400,
      msg: ORG_MESSAGES.invitationExpired,
    });
  });
});
