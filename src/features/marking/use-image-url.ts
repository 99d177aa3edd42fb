/**
 * An image that needs the bearer header (scanned pages, cut-out answers), fetched through the HTTP client
 * as a blob and shown through an object URL, revoked when the image is no longer shown.
 */
import { useEffect, useState } from 'react';
import { fetchImageBlob } from './marking-api';
import { useMarkingServices } from './marking-services';

export type ImageUrl = { url: string | null; failed: boolean; retry: () => void };

export function useImageUrl(path: string | null): ImageUrl {
  const { http } = useMarkingServices();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ path: string | null; attempt: number; url: string | null; failed: boolean }>({
    path: null,
    attempt: 0,
    url: null,
    failed: false,
  });

  useEffect(() => {
    if (!path) return;
    let created: string | null = null;
    let current = true;
    fetchImageBlob(http, path).then(
      (blob) => {
        if (!current) return;
        created = URL.createObjectURL(blob);
        setState({ path, attempt, url: created, failed: false });
      },
      () => {
        if (current) setState({ path, attempt, url: null, failed: true });
      },
    );
    return () => {
      current = false;
      if (created) URL.revokeObjectURL(created);
    };
  }, [http, path, attempt]);

  const fresh = state.path === path && state.attempt === attempt;
  return { url: fresh ? state.url : null, failed: fresh && state.failed, retry: () => setAttempt((a) => a + 1) };
}
