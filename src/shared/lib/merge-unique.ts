import { union, unionBy } from 'es-toolkit';

/**
 * The items of `first` followed by those of `second` not already present, each once. Identity is
 * SameValueZero, or the value `by` returns (e.g. `(question) => question.id`).
 */
export function mergeUnique<T>(first: readonly T[], second: readonly T[], by?: (item: T) => unknown): T[] {
  return by ? unionBy(first, second, by) : union(first, second);
}
