/**
 * A scanned answer's image (the cut the marking module serves), fetched once per answer and kept as an
 * object URL for the page's life. Shared by the analysis and re-practice pages; each passes its own
 * HTTP client and cache key.
 */
import { useQuery } from '@tanstack/react-query';
import type { HttpClient } from '../adapters/http-client';

export function useAnswerImageOf(http: HttpClient, feature: string, answerId: number | null) {
  return useQuery({
    queryKey: [feature, 'answer-image', answerId],
    queryFn: async () => {
      const response = await http.axios.get<Blob>(`/api/marking/answers/${answerId}/image`, {
        responseType: 'blob',
        silent: true,
      });
      return URL.createObjectURL(response.data);
    },
    enabled: answerId !== null,
    retry: false,
    staleTime: Infinity,
  });
}
