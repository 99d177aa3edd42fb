/** /rehearse's filters, kept in the URL (so a view can be bookmarked and the printable book opened from it). */
import { useSearchParams } from 'react-router-dom';

export function useFilters() {
  const [search, setSearch] = useSearchParams();
  const get = (key: string) => search.get(key) ?? undefined;
  const num = (key: string) => (get(key) ? Number(get(key)) : undefined);
  const set = (patch: Record<string, string | number | undefined | null>) => {
    const next = new URLSearchParams(search);
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined || value === null || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    setSearch(next, { replace: true });
  };
  /** The book's filters read from the address (the class view's and the printable book's). */
  const bookFilter = () => ({
    subjectId: num('subjectId'),
    knowledgePointId: num('knowledgePointId'),
    chapterId: num('chapterId'),
    from: get('from'),
    to: get('to'),
    minTimesWrong: num('minTimesWrong'),
    mastery: get('mastery') ?? 'open',
  });
  return { get, num, set, bookFilter };
}
