/**
 * The only code that touches window.localStorage. Values are JSON. A missing key, corrupt JSON or a
 * storage the browser refuses (private mode, quota) all read as `{}`, the spec's default (§9), and
 * never throw: callers validate what they read with a schema.
 */

/** The value stored under `key`, parsed; `{}` when there is none or it cannot be read. */
export function getLocalItem(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? {} : (JSON.parse(raw) as unknown);
  } catch {
    return {};
  }
}

/** Stores `value` as JSON. Returns false when the browser refused (quota, private mode). */
export function setLocalItem(key: string, value: unknown): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

export function removeLocalItem(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored can be removed from a storage we cannot reach.
  }
}

/** Empties this origin's local storage (logout clears all of it, spec §4). */
export function clearLocalStorage(): void {
  try {
    localStorage.clear();
  } catch {
    // As above.
  }
}
