/**
 * One query parameter of a URL's search part (`?a=1&b=2`, with or without the leading `?`), decoded;
 * null when absent. The caller passes the search string, so this stays free of `window.location`.
 */
export function getQueryParam(search: string, name: string): string | null {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).get(name);
}
