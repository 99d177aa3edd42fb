/**
 * The marking feature's calls, one function per endpoint of the marking contract (plus the few homework,
 * student and scan endpoints the marking pages read), each validating the answer with the contract's
 * schema. Takes the HTTP client as an argument; holds no state. Failures are toasted by the client
 * unless a call says it shows them itself.
 */
import { z } from 'zod';
import type { HttpClient } from '../../shared/adapters/http-client';
import {
  markingOverviewSchema,
  markingTaskSchema,
  reviewBulkResultSchema,
  reviewItemSchema,
  scoreTableSchema,
  type AssignmentsUpdate,
  type ReviewBulkResolution,
  type ReviewResolution,
  type ScoreSubmit,
} from '../../shared/contract/marking';
import { homeworkPageSchema, homeworkSchema, studentListSchema, type HomeworkStatus } from '../../shared/contract/papers';

export const fetchOverview = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/marking/homework/${homeworkId}`, undefined, markingOverviewSchema);

export const saveAssignments = (http: HttpClient, homeworkId: number, update: AssignmentsUpdate) =>
  http.putJson(`/api/marking/homework/${homeworkId}/assignments`, update, markingOverviewSchema);

/** Marks a student absent (缺考) or undoes it; answers the new overview. */
export const saveAbsence = (http: HttpClient, homeworkId: number, studentId: number, absent: boolean) =>
  http.putJson(`/api/marking/homework/${homeworkId}/students/${studentId}/absence`, { absent }, markingOverviewSchema);

/** The owner ends marking (已完成) or reopens it; answers the new overview. */
export const saveClosure = (http: HttpClient, homeworkId: number, closed: boolean) =>
  http.putJson(`/api/marking/homework/${homeworkId}/closure`, { closed }, markingOverviewSchema);

export const fetchReviewItems = (http: HttpClient, homeworkId: number, status: 'open' | 'resolved') =>
  http.get(`/api/marking/homework/${homeworkId}/review`, { status }, z.array(reviewItemSchema));

export const resolveReviewItem = (http: HttpClient, itemId: number, resolution: ReviewResolution) =>
  http.postJson(`/api/marking/review/${itemId}/resolve`, resolution, reviewItemSchema);

/** 批量确认 / 批量作废 (or, with dryRun, what they would do): per-item results and the marks lost. */
export const bulkResolveReview = (http: HttpClient, request: ReviewBulkResolution) =>
  http.postJson('/api/marking/review/bulk', request, reviewBulkResultSchema);

/** The next answer of the question for me, or null when none is left (besides those I skip). */
export const fetchNextTask = (http: HttpClient, homeworkId: number, questionNo: number, skip: number[] = []) =>
  http.postJson(
    `/api/marking/homework/${homeworkId}/questions/${questionNo}/next`,
    skip.length > 0 ? { skip } : {},
    markingTaskSchema.nullable(),
  );

/** The school's error causes (错因), offered with the score on /write. */
export const fetchErrorCauses = (http: HttpClient) =>
  http
    .get('/api/rehearse/settings', undefined, z.object({ errorCauses: z.array(z.string()) }))
    .then((settings) => settings.errorCauses);

export const submitScore = (http: HttpClient, taskId: number, submit: ScoreSubmit) =>
  http.postJson(`/api/marking/tasks/${taskId}/score`, submit, markingTaskSchema);

export const fetchHistory = (http: HttpClient, homeworkId: number, questionNo: number) =>
  http.get(`/api/marking/homework/${homeworkId}/questions/${questionNo}/history`, undefined, z.array(markingTaskSchema));

export const fetchArbitration = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/marking/homework/${homeworkId}/arbitration`, undefined, z.array(markingTaskSchema));

export const fetchScores = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/marking/homework/${homeworkId}/scores`, undefined, scoreTableSchema);

/** Saves the score table as Excel under "<title>-成绩表.xlsx"; a failure toasts 题量过大，下载失败. */
export const downloadScoresXlsx = (http: HttpClient, homeworkId: number, title: string) =>
  http.downloadGet(`/api/marking/homework/${homeworkId}/scores.xlsx`, undefined, `${title}-成绩表.xlsx`);

/** An image behind the bearer header (a plain <img src> cannot carry it). Silent: the viewer says it failed. */
export function fetchImageBlob(http: HttpClient, url: string): Promise<Blob> {
  return http.getBlob(url, undefined, { silent: true });
}

export const answerImageUrl = (answerId: number) => `/api/marking/answers/${answerId}/image`;
export const scanPageImageUrl = (imageId: string) => `/api/scan/pages/${encodeURIComponent(imageId)}/image`;

export const fetchHomework = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/homework/${homeworkId}`, undefined, homeworkSchema);

/** Homework of the given status (the list endpoint filters by one status at a time). */
export const fetchHomeworkByStatus = (http: HttpClient, status: HomeworkStatus, pageSize = 50) =>
  http.get('/api/homework', { page: 1, pageSize, status }, homeworkPageSchema);

export const fetchStudents = (http: HttpClient, classId: number) =>
  http.get(`/api/classes/${classId}/students`, undefined, studentListSchema);
