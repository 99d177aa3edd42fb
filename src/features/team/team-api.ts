/** The team feature's calls, one per endpoint of the org contract, each answer checked by its schema. */
import type { HttpClient } from '../../shared/adapters/http-client';
import { currentUserSchema } from '../../shared/contract/auth';
import {
  invitationListSchema,
  invitationPreviewSchema,
  invitationSchema,
  joinRequestListSchema,
  joinRequestSchema,
  memberListSchema,
  promotionResultSchema,
  schoolDetailSchema,
  schoolStructureSchema,
  type CreateSchool,
  type UpdateSchool,
} from '../../shared/contract/org';
import { z } from 'zod';

const idSchema = z.object({ id: z.number().int() });
const org = (orgId: number) => `/api/org/schools/${orgId}`;

/** The user as the server now sees them (after a change that may move their default school year). */
export const fetchCurrentUser = (http: HttpClient) => http.get('/api/user/info', undefined, currentUserSchema);

export const createSchool = (http: HttpClient, input: CreateSchool) =>
  http.postJson('/api/org/schools', input, currentUserSchema);
export const switchSchool = (http: HttpClient, orgId: number) => http.putJson('/api/org/default', { orgId }, currentUserSchema);
export const fetchSchool = (http: HttpClient, orgId: number) => http.get(org(orgId), undefined, schoolDetailSchema);
export const updateSchool = (http: HttpClient, orgId: number, input: UpdateSchool) =>
  http.putJson(org(orgId), input, schoolDetailSchema);
export function uploadLogo(http: HttpClient, orgId: number, file: Blob) {
  const form = new FormData();
  form.append('file', file);
  return http.upload(`${org(orgId)}/logo`, form, {}, schoolDetailSchema);
}

export const fetchStructure = (http: HttpClient, orgId: number) =>
  http.get(`${org(orgId)}/structure`, undefined, schoolStructureSchema);
export const createSchoolYear = (http: HttpClient, orgId: number, name: string, classNames: string[]) =>
  http.postJson(`${org(orgId)}/school-years`, { name, classNames }, idSchema);
export const createClass = (http: HttpClient, orgId: number, schoolYearId: number, name: string) =>
  http.postJson(`${org(orgId)}/school-years/${schoolYearId}/classes`, { name }, idSchema);
export const renameClass = (http: HttpClient, orgId: number, id: number, name: string) =>
  http.putJson(`${org(orgId)}/classes/${id}`, { name });
export const archiveClass = (http: HttpClient, orgId: number, id: number, archived: boolean) =>
  http.postJson(`${org(orgId)}/classes/${id}/archive`, { archived });
export const createSubject = (http: HttpClient, orgId: number, name: string) =>
  http.postJson(`${org(orgId)}/subjects`, { name }, idSchema);
export const renameSubject = (http: HttpClient, orgId: number, id: number, name: string) =>
  http.putJson(`${org(orgId)}/subjects/${id}`, { name });
export const archiveSubject = (http: HttpClient, orgId: number, id: number, archived: boolean) =>
  http.postJson(`${org(orgId)}/subjects/${id}/archive`, { archived });

export const fetchMembers = (http: HttpClient, orgId: number) => http.get(`${org(orgId)}/members`, undefined, memberListSchema);
export const updateMember = (
  http: HttpClient,
  orgId: number,
  userId: number,
  input: {
    role: string;
    gradeDirectorOf: number[];
    classTeacherOf: number[];
    assignments: { classId: number; subjectId: number }[];
  },
) => http.putJson(`${org(orgId)}/members/${userId}`, input);
export const removeMember = (http: HttpClient, orgId: number, userId: number) =>
  http.deleteQuery(`${org(orgId)}/members/${userId}`);
export const leaveSchool = (http: HttpClient, orgId: number) => http.postJson(`${org(orgId)}/leave`, {}, currentUserSchema);

export const fetchInvitations = (http: HttpClient, orgId: number) =>
  http.get(`${org(orgId)}/invitations`, undefined, invitationListSchema);
export const createInvitation = (
  http: HttpClient,
  orgId: number,
  input: {
    role: 'admin' | 'teacher';
    schoolYearId: number | null;
    classIds: number[];
    subjectIds: number[];
    expiresInDays: number;
    maxUses: number;
  },
) => http.postJson(`${org(orgId)}/invitations`, input, invitationSchema);
export const revokeInvitation = (http: HttpClient, orgId: number, id: number) =>
  http.postJson(`${org(orgId)}/invitations/${id}/revoke`, {}, invitationSchema);

export const previewInvitation = (http: HttpClient, lookup: { token?: string; code?: string }) =>
  http.get('/api/invitations/preview', lookup, invitationPreviewSchema);
export const acceptInvitation = (http: HttpClient, lookup: { token?: string; code?: string }) =>
  http.postJson('/api/invitations/accept', lookup, currentUserSchema);

export const requestToJoin = (http: HttpClient, code: string) =>
  http.postJson('/api/org/join-requests', { code }, joinRequestSchema);
export const fetchMyJoinRequests = (http: HttpClient) =>
  http.get('/api/org/join-requests/mine', undefined, joinRequestListSchema);
export const fetchJoinRequests = (http: HttpClient, orgId: number) =>
  http.get(`${org(orgId)}/join-requests`, undefined, joinRequestListSchema);
export const decideJoinRequest = (http: HttpClient, orgId: number, id: number, approve: boolean) =>
  http.postJson(`${org(orgId)}/join-requests/${id}/decision`, { approve }, joinRequestSchema);
export const promoteSchoolYear = (http: HttpClient, orgId: number, id: number) =>
  http.postJson(`${org(orgId)}/school-years/${id}/promote`, {}, promotionResultSchema);
