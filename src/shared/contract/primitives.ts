/**
 * The building blocks every request schema is made of, so each rule the database imposes is checked once,
 * at the contract, and a bad value is a 400 with a Chinese message instead of a database error:
 * - text: PostgreSQL text cannot hold NUL (U+0000), and a lone UTF-16 surrogate cannot be encoded as UTF-8;
 * - ids: PostgreSQL `integer` (int4) columns hold 1..2147483647;
 * - dates: a `date` column takes only days that exist, from year 1.
 */
import { z } from 'zod';

export const TEXT_INVALID_MESSAGE = '不能包含空字符或无效的字符编码';
export const ID_INVALID_MESSAGE = '编号必须是正整数';
export const DATE_FORMAT_MESSAGE = '日期格式应为 YYYY-MM-DD';
export const DATE_INVALID_MESSAGE = '日期不存在';

/** Largest value of a PostgreSQL integer column (and of every id). */
export const MAX_ID = 2_147_483_647;

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when the string can be stored as PostgreSQL text (no NUL, well-formed UTF-16). */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** A string that can be stored: every request string schema starts here (then trims and bounds it). */
export const text = () => z.string().refine(isStorableText, TEXT_INVALID_MESSAGE);

/** An id in a JSON body: a positive int4. */
export const idSchema = z.number().int(ID_INVALID_MESSAGE).positive(ID_INVALID_MESSAGE).max(MAX_ID, ID_INVALID_MESSAGE);
/** An id in a path, query string or form field (text that must read as a positive int4). */
export const formIdSchema = z.coerce
  .number(ID_INVALID_MESSAGE)
  .int(ID_INVALID_MESSAGE)
  .positive(ID_INVALID_MESSAGE)
  .max(MAX_ID, ID_INVALID_MESSAGE);

/** `{ id }` path parameters. */
export const idParamsSchema = z.object({ id: formIdSchema });

/** True when YYYY-MM-DD names a day that exists, from 0001-01-01 on. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one; setUTCFullYear keeps years below 100 as given.
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return day <= last.getUTCDate();
}

/** YYYY-MM-DD (the spec's date format), a day that exists. */
export const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_FORMAT_MESSAGE)
  .refine(isCalendarDate, DATE_INVALID_MESSAGE);

/** The body of a POST that takes none: nothing, or an empty object. */
export const noBodySchema = z.object({}).optional();
