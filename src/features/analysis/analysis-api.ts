/**
 * The analysis feature's calls, one per endpoint of the analysis contract, each validating the answer
 * with the contract's schema, and the react-query hooks the pages use. Holds no state of its own.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  analysisOptionsSchema,
  analysisOverviewSchema,
  averageScoreSchema,
  bigDataSchema,
  correctScoreSchema,
  homeworkAnalysisSchema,
  type HomeworkProjection,
  personAnalysisSchema,
  subjectStatsSchema,
} from '../../shared/contract/analysis';
import { useAnalysisServices } from './analysis-services';
import { useAnswerImageOf } from '../../shared/ui/use-answer-image';

type Params = Record<string, string | number | undefined>;
const clean = (params: Params) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

export function useAnalysisOptions() {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'options'],
    queryFn: () => http.get('/api/analysis/options', undefined, analysisOptionsSchema),
  });
}

export function useOverview(kind: 'grade' | 'class', params: Params, enabled: boolean) {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', kind, params],
    queryFn: () => http.get(`/api/analysis/${kind}`, clean(params), analysisOverviewSchema),
    enabled,
  });
}

export function usePerson(params: Params, enabled: boolean) {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'person', params],
    queryFn: () => http.get('/api/analysis/person', clean(params), personAnalysisSchema),
    enabled,
  });
}

/** One homework's analysis; `projection` for a projected page (names only when asked and allowed). */
export function useHomeworkAnalysis(homeworkId: number | null, classId?: number | null, projection?: HomeworkProjection) {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'homework', homeworkId, classId ?? null, projection ?? null],
    queryFn: () =>
      http.get(
        `/api/analysis/homework/${homeworkId}`,
        clean({ classId: classId ?? undefined, projection }),
        homeworkAnalysisSchema,
      ),
    enabled: homeworkId !== null,
    // Turning names on or off keeps the page (and its question) on screen while the other view loads.
    placeholderData: projection ? keepPreviousData : undefined,
  });
}

const DATA_CENTER = {
  subject: subjectStatsSchema,
  'correct-score': correctScoreSchema,
  'average-score': averageScoreSchema,
} as const;
type DataCenterReports = { [K in keyof typeof DATA_CENTER]: z.infer<(typeof DATA_CENTER)[K]> };

export function useDataCenter<K extends keyof typeof DATA_CENTER>(report: K, params: Params, enabled: boolean) {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'data-center', report, params],
    queryFn: () =>
      http
        .get(`/api/analysis/data-center/${report}`, clean(params))
        .then((body) => DATA_CENTER[report].parse(body) as DataCenterReports[K]),
    enabled,
    retry: false,
  });
}

export function useBigData() {
  const { http } = useAnalysisServices();
  return useQuery({
    queryKey: ['analysis', 'big-data'],
    queryFn: () => http.get('/api/analysis/big-data', undefined, bigDataSchema),
  });
}

/** An answer image behind the bearer header, as an object URL. */
export function useAnswerImage(answerId: number | null) {
  return useAnswerImageOf(useAnalysisServices().http, 'analysis', answerId);
}

/** Saves the homework report as Word (作业报告.docx), for one class or every visible class. */
export function useReportDocx() {
  const { http } = useAnalysisServices();
  return (homeworkId: number, title: string, classId: number | null) =>
    http.downloadGet(
      `/api/analysis/homework/${homeworkId}/docx`,
      clean({ classId: classId ?? undefined }),
      `${title}-作业报告.docx`,
    );
}
