/**
 * 校本资料's calls (the school's shared library of papers), apart from papers-api.ts so pages that do not
 * use the library do not load its schemas. Copying reuses the papers endpoint.
 */
import type { HttpClient } from '../../shared/adapters/http-client';
import { materialPageSchema, type MaterialListQuery, type ShareRequest } from '../../shared/contract/materials';
import { paperDetailSchema, paperSummarySchema } from '../../shared/contract/papers';

/** 校本资料: the school's shared papers, newest share first. */
export const fetchMaterialPage = (http: HttpClient, query: MaterialListQuery) =>
  http.get('/api/school-materials', query, materialPageSchema);

/** 共享到校本资料 (or refile under another chapter). */
export const sharePaper = (http: HttpClient, paperId: number, request: ShareRequest) =>
  http.postJson(`/api/papers/${paperId}/share`, request, paperSummarySchema);

/** 撤回 (the owner) or 移除 (an admin) a paper from 校本资料. */
export const unsharePaper = (http: HttpClient, paperId: number) => http.deleteQuery(`/api/papers/${paperId}/share`);

/** 复制到我的试卷: a new paper of the caller's, titled 「…（副本）」. */
export const copyPaper = (http: HttpClient, paperId: number) =>
  http.postJson(`/api/papers/${paperId}/copy`, {}, paperDetailSchema);
