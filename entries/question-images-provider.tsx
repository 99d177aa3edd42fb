/**
 * Hands the pages that show question text the loader of 本校题 pictures: the portal's HTTP client
 * (the session's bearer header), one loader per client so another login starts a new picture cache.
 */
import { useMemo, type ReactNode } from 'react';
import type { HttpClient } from '../src/shared/adapters/http-client';
import { type LoadQuestionImage, QuestionImagesProvider } from '../src/shared/ui/question-images';

export function WithQuestionImages({ http, children }: { http: HttpClient; children: ReactNode }) {
  // A picture that cannot be read stays its alt text; no toast for each.
  const load = useMemo<LoadQuestionImage>(() => (src) => http.getBlob(src, undefined, { silent: true }), [http]);
  return <QuestionImagesProvider load={load}>{children}</QuestionImagesProvider>;
}
