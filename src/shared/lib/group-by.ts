import { groupBy as groupByWith } from 'es-toolkit';

/**
 * The items grouped by a key: a property name or a function of the item. Groups keep the items'
 * order; a group exists only for keys that occur.
 */
export function groupBy<T, P extends keyof T>(items: readonly T[], key: P): Partial<Record<T[P] & PropertyKey, T[]>>;
export function groupBy<T, K extends PropertyKey>(items: readonly T[], key: (item: T) => K): Partial<Record<K, T[]>>;
export function groupBy<T>(items: readonly T[], key: keyof T | ((item: T) => PropertyKey)): Partial<Record<PropertyKey, T[]>> {
  const keyOf = typeof key === 'function' ? key : (item: T) => item[key] as PropertyKey;
  return groupByWith(items, (item) => keyOf(item));
}
