/** The pure decisions of the permission module, role by role and duty by duty. */
import { describe, expect, it } from 'vitest';
import { type Actor, can, scopeAllows } from '../../../server/services/org/permissions';

const base: Actor = { userId: 10, orgId: 1, role: 'teacher', gradeDirectorOf: [], classTeacherOf: [], teaches: [] };
const actor = (patch: Partial<Actor>): Actor => ({ ...base, ...patch });

describe('can', () => {
  it('lets only creators and admins manage the school, and only creators appoint creators', () => {
    expect(can(actor({ role: 'creator' }), { kind: 'school.manage' })).toBe(true);
    expect(can(actor({ role: 'admin' }), { kind: 'school.manage' })).toBe(true);
    expect(can(actor({ gradeDirectorOf: [5] }), { kind: 'school.manage' })).toBe(false);
    expect(can(actor({ role: 'admin' }), { kind: 'school.appointCreator' })).toBe(false);
    expect(can(actor({ role: 'creator' }), { kind: 'school.appointCreator' })).toBe(true);
  });

  it('lets the owner and admins change what someone made; nobody owns an orphan but admins', () => {
    expect(can(base, { kind: 'owned.edit', ownerId: 10 })).toBe(true);
    expect(can(base, { kind: 'owned.edit', ownerId: 11 })).toBe(false);
    expect(can(base, { kind: 'owned.edit', ownerId: null })).toBe(false);
    expect(can(actor({ role: 'admin' }), { kind: 'owned.edit', ownerId: 11 })).toBe(true);
    expect(can(actor({ gradeDirectorOf: [5], classTeacherOf: [7] }), { kind: 'owned.edit', ownerId: 11 })).toBe(false);
  });

  it('lets those who run a class change its roster', () => {
    const klass = { kind: 'class.manage', classId: 7, schoolYearId: 5 } as const;
    expect(can(base, klass)).toBe(false);
    expect(can(actor({ gradeDirectorOf: [5] }), klass)).toBe(true);
    expect(can(actor({ gradeDirectorOf: [6] }), klass)).toBe(false);
    expect(can(actor({ classTeacherOf: [7] }), klass)).toBe(true);
    expect(can(actor({ teaches: [{ classId: 7, subjectId: 2 }] }), klass)).toBe(true);
    expect(can(actor({ teaches: [{ classId: 8, subjectId: 2 }] }), klass)).toBe(false);
    expect(can(actor({ role: 'admin' }), klass)).toBe(true);
  });
});

describe('scopeAllows', () => {
  const scope = {
    schoolYearId: 5,
    wholeYear: false,
    classes: [
      { classId: 7, subjects: 'all' as const },
      { classId: 8, subjects: [2] },
    ],
  };
  it('answers by class and subject', () => {
    expect(scopeAllows(scope, 7, 3)).toBe(true);
    expect(scopeAllows(scope, 8, 2)).toBe(true);
    expect(scopeAllows(scope, 8, 3)).toBe(false);
    expect(scopeAllows(scope, 8)).toBe(true);
    expect(scopeAllows(scope, 9)).toBe(false);
  });
});
