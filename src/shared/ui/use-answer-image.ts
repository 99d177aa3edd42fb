/**
 * A scanned answer's image (the cut the marking module serves), fetched once per answer and shown
 * through an object URL. The query caches the image itself; each component using it makes its own
 * object URL and revokes it when the answer changes or the component unmounts, so no URL outlives
 * its image tag. Shared by the analysis and re-practice pages; each passes its own HTTP client and
 * cache key.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { HttpClient } from '../adapters/http-client';

export type AnswerImage = {
  /** The object URL to put in an image tag; undefined while loading or when the image cannot be read. */
  data: string | undefined;
  isLoading: boolean;
  isError: boolean;
};

export function useAnswerImageOf(http: HttpClient, feature: string, answerId: number | null): AnswerImage {
  const query = useQuery({
    queryKey: [feature, 'answer-image', answerId],
    queryFn: () => http.getBlob(`/api/marking/answers/${answerId}/image`, undefined, { silent: true }),
    enabled: answerId !== null,
    retry: false,
    staleTime: Infinity,
  });
  const url = useObjectUrl(query.data);
  return {
    data: url,
    // Between the image arriving and its URL being made the image still counts as loading.
    isLoading: query.isLoading || (query.data !== undefined && url === undefined),
    isError: query.isError,
  };
}

/** An object URL for `blob`, made after render and revoked when `blob` changes or on unmount. */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    // The URL is an external resource made and released with this effect, so it is set from here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setMade({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return made && made.blob === blob ? made.url : undefined;
}
