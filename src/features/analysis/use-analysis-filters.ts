/**
 * The filters of the analysis pages live in the URL (?schoolYearId=&subjectId=&classId=&studentId=
 * &homeworkId=&from=&to=), so a view can be bookmarked, shared and printed; missing ones fall back to
 * the user's school year and the first subject and class they can see.
 */
import { useSearchParams } from 'react-router-dom';
import type { AnalysisOptions } from '../../shared/contract/analysis';
import { parsePositiveId } from '../../shared/lib/query-param';
import { useAnalysisServices } from './analysis-services';

export type AnalysisFilters = {
  schoolYearId: number | null;
  subjectId: number | null;
  classId: number | null;
  studentId: number | null;
  homeworkId: number | null;
  from: string | null;
  to: string | null;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function useAnalysisFilters(options: AnalysisOptions | undefined) {
  const [params, setParams] = useSearchParams();
  const { schoolYearId: preferredYear } = useAnalysisServices();
  const asked = (name: string) => parsePositiveId(params.get(name));
  const date = (name: string) => {
    const value = params.get(name);
    return value && DATE.test(value) ? value : null;
  };
  const years = options?.schoolYears ?? [];
  // A homework named in the address (a link from 作业列表 or 阅卷) brings its own school year and subject, so
  // the filters show it rather than its id under another subject.
  const askedHomework = (options?.homework ?? []).find((h) => h.id === asked('homeworkId'));
  const schoolYearId =
    asked('schoolYearId') ?? askedHomework?.schoolYearId ?? years.find((y) => y.id === preferredYear)?.id ?? years[0]?.id ?? null;
  const homeworkOfYear = (options?.homework ?? []).filter((h) => h.schoolYearId === schoolYearId);
  const subjectId =
    asked('subjectId') ??
    askedHomework?.subjectId ??
    options?.subjects.find((s) => homeworkOfYear.some((h) => h.subjectId === s.id && h.scored))?.id ??
    options?.subjects[0]?.id ??
    null;
  const classId = asked('classId') ?? options?.classes.find((c) => c.schoolYearId === schoolYearId)?.id ?? null;
  const filters: AnalysisFilters = {
    schoolYearId,
    subjectId,
    classId,
    studentId: asked('studentId'),
    homeworkId:
      asked('homeworkId') ??
      homeworkOfYear.find((h) => h.subjectId === subjectId && h.scored)?.id ??
      homeworkOfYear.find((h) => h.subjectId === subjectId)?.id ??
      null,
    from: date('from'),
    to: date('to'),
  };
  const update = (changes: Partial<Record<keyof AnalysisFilters, number | string | null>>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === undefined || value === '') next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next, { replace: true });
  };
  return { filters, update };
}
