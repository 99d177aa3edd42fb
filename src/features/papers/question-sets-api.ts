/**
 * 题目合集's calls (question sets gathered from the question bank, shared to 校本资料), apart from
 * papers-api.ts so pages that do not use sets do not load their schemas.
 */
import type { HttpClient } from '../../shared/adapters/http-client';
import {
  questionSetDetailSchema,
  questionSetPageSchema,
  questionSetSummarySchema,
  type QuestionSetCreate,
  type QuestionSetInput,
  type QuestionSetListQuery,
} from '../../shared/contract/question-sets';

/** 校本资料's shared sets, or the caller's own with `scope: 'mine'`. */
export const fetchQuestionSetPage = (http: HttpClient, query: QuestionSetListQuery) =>
  http.get('/api/question-sets', query, questionSetPageSchema);

export const fetchQuestionSet = (http: HttpClient, id: number) =>
  http.get(`/api/question-sets/${id}`, undefined, questionSetDetailSchema);

export const createQuestionSet = (http: HttpClient, input: QuestionSetCreate) =>
  http.postJson('/api/question-sets', input, questionSetDetailSchema);

export const updateQuestionSet = (http: HttpClient, id: number, input: QuestionSetInput) =>
  http.putJson(`/api/question-sets/${id}`, input, questionSetDetailSchema);

export const deleteQuestionSet = (http: HttpClient, id: number) => http.deleteQuery(`/api/question-sets/${id}`);

/** 共享到校本资料 (the owner). */
export const shareQuestionSet = (http: HttpClient, id: number) =>
  http.postJson(`/api/question-sets/${id}/share`, {}, questionSetSummarySchema);

/** 撤回 (the owner) or 移除 (an admin) a set from 校本资料. */
export const unshareQuestionSet = (http: HttpClient, id: number) => http.deleteQuery(`/api/question-sets/${id}/share`);

/** 复制到我的题目合集: a new, unshared set of the caller's, named 「…（副本）」. */
export const copyQuestionSet = (http: HttpClient, id: number) =>
  http.postJson(`/api/question-sets/${id}/copy`, {}, questionSetDetailSchema);
