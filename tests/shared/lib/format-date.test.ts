import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../src/shared/lib/format-date';

describe('formatDate', () => {
  it('formats a Date as YYYY-MM-DD with zero-padded month and day', () => {
    expect(formatDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
  });

  it('accepts an ISO string and an epoch number', () => {
    expect(formatDate('2023-11-30T08:00:00')).toBe('2023-11-30');
    expect(formatDate(new Date(2022, 6, 9).getTime())).toBe('2022-07-09');
  });

  it('answers an empty string for missing or invalid dates instead of "Invalid Date"', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
