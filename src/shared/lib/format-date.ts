import dayjs from 'dayjs';

export const DATE_FORMAT = 'YYYY-MM-DD';

/** A date as YYYY-MM-DD (spec §9); '' for a missing or invalid date rather than "Invalid Date". */
export function formatDate(value: Date | string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format(DATE_FORMAT) : '';
}
