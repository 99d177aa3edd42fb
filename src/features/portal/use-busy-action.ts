import { useCallback, useState } from 'react';

/**
 * A button's request: `busy` while it runs, and a failure swallowed because the HTTP client has already
 * shown the server's message. `run` resolves either way.
 */
export function useBusyAction(): [busy: boolean, run: (work: () => Promise<void>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch {
      // Shown by the HTTP client.
    } finally {
      setBusy(false);
    }
  }, []);
  return [busy, run];
}
