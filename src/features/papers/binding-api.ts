/** The 装订 calls: start a binding job, poll it, download its file. */
import type { HttpClient } from '../../shared/adapters/http-client';
import { type BindingJob, type BindingJobCreate, bindingJobSchema } from '../../shared/contract/binding';

export const startBindingJob = (http: HttpClient, input: BindingJobCreate) =>
  http.postJson('/api/binding/jobs', input, bindingJobSchema);

export const fetchBindingJob = (http: HttpClient, id: string) => http.get(`/api/binding/jobs/${id}`, undefined, bindingJobSchema);

export const downloadBindingFile = (http: HttpClient, job: BindingJob) =>
  http.downloadGet(`/api/binding/jobs/${job.id}/file`, undefined, job.fileName ?? '装订.pdf');
