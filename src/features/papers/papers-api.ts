/**
 * The papers feature's calls, one function per endpoint of the papers contract, each validating the
 * answer with the contract's schema. Takes the HTTP client as an argument; holds no state.
 */
import type { HttpClient } from '../../shared/adapters/http-client';
import { answerSheetTemplateSchema } from '../../shared/contract/answer-sheet';
import {
  homeworkPageSchema,
  homeworkSchema,
  paperDetailSchema,
  paperDraftSchema,
  paperSummaryPageSchema,
  questionPageSchema,
  questionSchema,
  studentListSchema,
  subjectListSchema,
  treeSchema,
  type AnswerSheetPdfQuery,
  type AutoComposeRequest,
  type HomeworkCreate,
  type HomeworkListQuery,
  type HomeworkStatus,
  type PaperInput,
  type PaperListQuery,
  type QuestionInput,
  type QuestionQuery,
} from '../../shared/contract/papers';
import { MESSAGES } from '../../shared/contract/envelope';
import { CLASS_TYPE, classListSchema } from '../../shared/contract/system';
import { questionImageSchema } from '../../shared/contract/question-images';

export const fetchSubjects = (http: HttpClient) => http.get('/api/subjects', undefined, subjectListSchema);

export const fetchChapters = (http: HttpClient, subjectId: number) =>
  http.get(`/api/subjects/${subjectId}/chapters`, undefined, treeSchema);

export const fetchKnowledgePoints = (http: HttpClient, subjectId: number) =>
  http.get(`/api/subjects/${subjectId}/knowledge-points`, undefined, treeSchema);

export const fetchQuestions = (http: HttpClient, query: QuestionQuery) => http.get('/api/questions', query, questionPageSchema);

/** 新建本校题: a question of the caller's school, in the question bank tagged 本校题. */
export const createQuestion = (http: HttpClient, input: QuestionInput) => http.postJson('/api/questions', input, questionSchema);

export const updateQuestion = (http: HttpClient, id: number, input: QuestionInput) =>
  http.putJson(`/api/questions/${id}`, input, questionSchema);

export const deleteQuestion = (http: HttpClient, id: number) => http.deleteQuery(`/api/questions/${id}`);

/** A picture for a 本校题 (stored for the caller's school): its address for the question's text. */
export function uploadQuestionImage(http: HttpClient, file: Blob) {
  const form = new FormData();
  form.append('file', file);
  return http.upload('/api/question-images', form, {}, questionImageSchema);
}

/** Removes a picture no question uses (one uploaded in the editor, then taken out or not saved). */
export const deleteQuestionImage = (http: HttpClient, src: string) => http.deleteQuery(src, undefined, { silent: true });

export const fetchPaper = (http: HttpClient, paperId: number) => http.get(`/api/papers/${paperId}`, undefined, paperDetailSchema);

/** 我的试卷: the caller's (or the school's) papers, newest first. */
export const fetchPaperPage = (http: HttpClient, query: PaperListQuery) => http.get('/api/papers', query, paperSummaryPageSchema);

export const deletePaper = (http: HttpClient, paperId: number) => http.deleteQuery(`/api/papers/${paperId}`);

export const createPaper = (http: HttpClient, input: PaperInput) => http.postJson('/api/papers', input, paperDetailSchema);

export const updatePaper = (http: HttpClient, paperId: number, input: PaperInput) =>
  http.putJson(`/api/papers/${paperId}`, input, paperDetailSchema);

export const autoComposePaper = (http: HttpClient, request: AutoComposeRequest) =>
  http.postJson('/api/papers/auto-compose', request, paperDraftSchema);

export const createHomework = (http: HttpClient, input: HomeworkCreate) => http.postJson('/api/homework', input, homeworkSchema);

export const fetchHomeworkPage = (http: HttpClient, query: HomeworkListQuery) =>
  http.get('/api/homework', query, homeworkPageSchema);

export const fetchHomework = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/homework/${homeworkId}`, undefined, homeworkSchema);

export const updateHomeworkStatus = (http: HttpClient, homeworkId: number, status: HomeworkStatus) =>
  http.patchJson(`/api/homework/${homeworkId}/status`, { status }, homeworkSchema);

export const fetchAnswerSheetTemplate = (http: HttpClient, homeworkId: number) =>
  http.get(`/api/homework/${homeworkId}/answer-sheet/template`, undefined, answerSheetTemplateSchema);

export const fetchStudents = (http: HttpClient, classId: number) =>
  http.get(`/api/classes/${classId}/students`, undefined, studentListSchema);

/** The classes of a school year (class tree nodes of type 2 under it). */
export const fetchClasses = (http: HttpClient, orgId: number, schoolYearId: number) =>
  http.get('/api/system/class', { orgId, type: CLASS_TYPE.klass, pid: schoolYearId }, classListSchema);

/** The classes of the paper's school year the user may assign it to (the server's permission rule). */
export const fetchAssignableClasses = (http: HttpClient, paperId: number) =>
  http.get('/api/homework/assignable-classes', { paperId }, classListSchema);

/** The school years of a school. */
export const fetchSchoolYears = (http: HttpClient, orgId: number) =>
  http.get('/api/system/class', { orgId, type: CLASS_TYPE.schoolYear, pid: null }, classListSchema);

/** Saves the paper as Word; a failure toasts 题量过大，下载失败 (the client's download rule). */
export const downloadPaperDocx = (http: HttpClient, paperId: number, title: string, withAnswers = false) =>
  http.download(`/api/papers/${paperId}/docx`, { withAnswers }, `${title}.docx`);

/** Saves the answer sheet PDF under the homework's title. */
export const downloadAnswerSheetPdf = (http: HttpClient, homeworkId: number, title: string, query: AnswerSheetPdfQuery) =>
  http.downloadGet(`/api/homework/${homeworkId}/answer-sheet.pdf`, query, `${title}-答题卡.pdf`);

/** The answer sheet PDF as a blob (to open in a tab: the bearer header cannot ride on a plain link). */
export function fetchAnswerSheetPdf(http: HttpClient, homeworkId: number, query: AnswerSheetPdfQuery): Promise<Blob> {
  return http.getBlob(`/api/homework/${homeworkId}/answer-sheet.pdf`, query, { failureMessage: MESSAGES.downloadFailed });
}
