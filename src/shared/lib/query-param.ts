/**
 * One query parameter of a URL's search part (`?a=1&b=2`, with or without the leading `?`), decoded;
 * null when absent. The caller passes the search string, so this stays free of `window.location`.
 */
export function getQueryParam(search: string, name: string): string | null {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(name);
}

/** A positive integer id from an address parameter (`?homeworkId=12`), or null for anything else. */
export function parsePositiveId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
