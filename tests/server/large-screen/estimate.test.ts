import { describe, expect, it } from 'vitest';
import { estimateFinish, startOfSchoolDay } from '../../../server/services/large-screen/snapshot.service';

describe('the large screen’s estimated finish', () => {
  const at = new Date('2026-11-23T08:00:00Z');

  it('takes the slower of scanning and marking at the last 15 minutes’ pace', () => {
    // 30 students left at 10 per 15 min = 45 min; 20 markings at 40 per 15 min = 7.5 min.
    expect(estimateFinish(at, { students: 30, markings: 20 }, { scannedStudents: 10, markings: 40 })?.toISOString()).toBe(
      '2026-11-23T08:45:00.000Z',
    );
  });

  it('gives no estimate for work nobody progressed on, and now when nothing is left', () => {
    expect(estimateFinish(at, { students: 5, markings: 0 }, { scannedStudents: 0, markings: 9 })).toBeNull();
    expect(estimateFinish(at, { students: 0, markings: 0 }, { scannedStudents: 0, markings: 0 })).toEqual(at);
  });

  it('starts the school day at midnight in China', () => {
    expect(startOfSchoolDay(new Date('2026-11-23T15:59:00Z')).toISOString()).toBe('2026-11-22T16:00:00.000Z');
    expect(startOfSchoolDay(new Date('2026-11-23T16:01:00Z')).toISOString()).toBe('2026-11-23T16:00:00.000Z');
  });
});
