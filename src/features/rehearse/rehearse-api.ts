/**
 * The re-practice feature's calls, one per endpoint of the rehearse contract, validated with its schemas,
 * and the react-query hooks the page uses. Holds no state of its own.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { classBookSchema, rehearseOptionsSchema, studentBookSchema } from '../../shared/contract/rehearse';
import { useRehearseServices } from './rehearse-services';
import { useAnswerImageOf } from '../../shared/ui/use-answer-image';

export type BookParams = Record<string, string | number | undefined>;
const clean = (params: BookParams) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

export function useRehearseOptions() {
  const { http } = useRehearseServices();
  return useQuery({
    queryKey: ['rehearse', 'options'],
    queryFn: () => http.get('/api/rehearse/options', undefined, rehearseOptionsSchema),
  });
}

export function useClassBook(params: BookParams, enabled: boolean) {
  const { http } = useRehearseServices();
  return useQuery({
    queryKey: ['rehearse', 'class', params],
    queryFn: () => http.get('/api/rehearse/class', clean(params), classBookSchema),
    enabled,
  });
}

export function useStudentBook(params: BookParams, enabled: boolean) {
  const { http } = useRehearseServices();
  return useQuery({
    queryKey: ['rehearse', 'student', params],
    queryFn: () => http.get('/api/rehearse/student', clean(params), studentBookSchema),
    enabled,
  });
}

export function useDownloadClassXlsx() {
  const { http } = useRehearseServices();
  return (params: BookParams, className: string) =>
    http.downloadGet('/api/rehearse/class.xlsx', clean(params), `${className}-高频错题.xlsx`);
}

/** A student's book as the server's PDF (answers and analysis, for the student to keep). */
export function useDownloadStudentPdf() {
  const { http } = useRehearseServices();
  return (params: BookParams, fileName: string) => http.downloadGet('/api/rehearse/student.pdf', clean(params), fileName);
}

/** Sets the error cause of a book entry; refreshes the books. */
export function useSetCause() {
  const { http } = useRehearseServices();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, errorCause }: { id: number; errorCause: string | null }) =>
      http.putJson(`/api/rehearse/wrong-questions/${id}/cause`, { errorCause }, z.object({ errorCause: z.string().nullable() })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['rehearse'] }),
  });
}

/** An answer image cut from the scan (the marking endpoint, behind the bearer header), as an object URL. */
export function useAnswerImage(answerId: number | null) {
  return useAnswerImageOf(useRehearseServices().http, 'rehearse', answerId);
}
