import { useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now, following changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Below this width the top bar's menu collapses to a dropdown and the scan icon is hidden. */
export const SMALL_SCREEN_QUERY = '(max-width: 768px)';
