/**
 * Schools and their staff: creating a school, its settings (the score bands analysis reads), its
 * school years, classes and subjects, members with their roles and teaching assignments, and
 * invitations. Shared by the server's org routes and the team feature.
 */
import { z } from 'zod';
import { roleSchema } from './auth';
import { text } from './primitives';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const name = (label: string, max = 40) => text().trim().min(1, `请输入${label}`).max(max, `${label}最多 ${max} 个字`);

export const SCHOOL_TYPES = ['小学', '初中', '高中', '完全中学'] as const;
export const schoolTypeSchema = z.enum(SCHOOL_TYPES);
export type SchoolType = z.infer<typeof schoolTypeSchema>;

export const ROLE_LABELS = { creator: '创建者', admin: '管理员', teacher: '教师' } as const;

/** The score bands of a school, in percent of the full mark (analysis-definitions: 及格/良好/优秀, 低分 below). */
export const DEFAULT_BANDS = { passPercent: 60, goodPercent: 75, excellentPercent: 85, lowPercent: 40 } as const;

export const ORG_MESSAGES = {
  lastCreator: '学校至少需要保留一位创建者',
  alreadyMember: '您已经是该学校的成员',
  invitationExpired: '邀请已过期，请联系学校管理员重新邀请',
  invitationUsedUp: '邀请的使用次数已用完，请联系学校管理员重新邀请',
  invitationRevoked: '邀请已被撤销，请联系学校管理员重新邀请',
  invitationNotFound: '邀请不存在，请检查链接或邀请码',
  bandsOrder: '分数线须满足 及格 < 良好 < 优秀',
  lowBelowPass: '低分线须低于及格线',
  joinCodeUnknown: '学校码不存在，请向学校管理员核对',
  joinRequestDecided: '该申请已处理',
} as const;

// ---- schools -------------------------------------------------------------------------------------

/** POST /api/org/schools: a user creates a school and becomes its creator. */
export const createSchoolSchema = z.object({
  name: name('学校名称'),
  region: name('所在地区', 60),
  schoolType: schoolTypeSchema,
});
export type CreateSchool = z.infer<typeof createSchoolSchema>;

const percent = z.coerce.number().int().min(1, '分数线须在 1 到 100 之间').max(100, '分数线须在 1 到 100 之间');

/** PUT /api/org/schools/:orgId: the settings the creator and admins edit. */
export const updateSchoolSchema = z
  .object({
    name: name('学校名称'),
    region: name('所在地区', 60),
    schoolType: schoolTypeSchema,
    filingNumber: text().trim().max(60, '备案号最多 60 个字'),
    passPercent: percent,
    goodPercent: percent,
    excellentPercent: percent,
    /** 低分 line; left out, the stored one stays. */
    lowPercent: percent.optional(),
  })
  .refine((v) => v.passPercent < v.goodPercent && v.goodPercent < v.excellentPercent, {
    message: ORG_MESSAGES.bandsOrder,
    path: ['goodPercent'],
  })
  .refine((v) => v.lowPercent === undefined || v.lowPercent < v.passPercent, {
    message: ORG_MESSAGES.lowBelowPass,
    path: ['lowPercent'],
  });
export type UpdateSchool = z.infer<typeof updateSchoolSchema>;

export const schoolDetailSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  region: z.string(),
  schoolType: z.string(),
  logo: z.string().nullable(),
  filingNumber: z.string(),
  passPercent: z.number().int(),
  goodPercent: z.number().int(),
  excellentPercent: z.number().int(),
  lowPercent: z.number().int(),
  memberCount: z.number().int(),
  /** The caller's role here, and whether they may edit the settings. */
  myRole: roleSchema,
  canManage: z.boolean(),
  /** 学校码 for join requests: shown to the creator and admins only (null for others). */
  joinCode: z.string().nullable().optional(),
});
export type SchoolDetail = z.infer<typeof schoolDetailSchema>;

// ---- join requests by 学校码 ---------------------------------------------------------------------

/**
 * - POST /api/org/join-requests              { code }        -> JoinRequest (the caller asks; pending)
 * - GET  /api/org/join-requests/mine                         -> JoinRequest[] (the caller's, newest first)
 * - GET  /api/org/schools/:orgId/join-requests               -> JoinRequest[] (pending; admins)
 * - POST /api/org/schools/:orgId/join-requests/:id/decision  { approve }  -> JoinRequest (admins)
 */
export const joinRequestCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[0-9A-Z]{8}$/, '学校码为 8 位数字或字母'),
});
export const joinRequestDecisionSchema = z.object({ approve: z.boolean() });
export const joinRequestSchema = z.object({
  id: z.number().int(),
  orgId: z.number().int(),
  schoolName: z.string(),
  userId: z.number().int(),
  nickname: z.string(),
  mobile: z.string().nullable(),
  status: z.enum(['pending', 'approved', 'declined']),
  createdAt: z.string(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;
export const joinRequestListSchema = z.array(joinRequestSchema);

export const orgParamsSchema = z.object({ orgId: id });

/** POST /api/org/schools/:orgId/school-years/:id/promote (升年级): the school year's new name, or graduated. */
export const promotionResultSchema = z.object({ name: z.string(), graduated: z.boolean() });
export const orgItemParamsSchema = z.object({ orgId: id, id });

/** What creating a school year, a class or a subject answers: the new row's id. */
export const createdSchema = z.object({ id: z.number().int() });
export type Created = z.infer<typeof createdSchema>;

// ---- structure -----------------------------------------------------------------------------------

export const structureClassSchema = z.object({ id: z.number().int(), name: z.string(), archived: z.boolean() });
export const structureYearSchema = structureClassSchema.extend({ classes: z.array(structureClassSchema) });
export const structureSubjectSchema = z.object({ id: z.number().int(), name: z.string(), archived: z.boolean() });
export const schoolStructureSchema = z.object({
  schoolYears: z.array(structureYearSchema),
  subjects: z.array(structureSubjectSchema),
});
export type SchoolStructure = z.infer<typeof schoolStructureSchema>;

/** POST /api/org/schools/:orgId/school-years: a school year with its classes in one step. */
export const createSchoolYearSchema = z.object({
  name: name('学年名称'),
  classNames: z.array(name('班级名称')).max(40, '一次最多创建 40 个班级').default([]),
});
export type CreateSchoolYear = z.output<typeof createSchoolYearSchema>;

/** POST /api/org/schools/:orgId/school-years/:id/classes */
export const createClassSchema = z.object({ name: name('班级名称') });
/** PUT .../classes/:id and .../subjects/:id */
export const renameSchema = z.object({ name: name('名称') });
/** POST .../classes/:id/archive and .../subjects/:id/archive */
export const archiveSchema = z.object({ archived: z.boolean() });
/** POST /api/org/schools/:orgId/subjects */
export const createSubjectSchema = z.object({ name: name('学科名称', 20) });

// ---- members -------------------------------------------------------------------------------------

export const assignmentSchema = z.object({ classId: id, subjectId: id });
export type Assignment = z.infer<typeof assignmentSchema>;

export const memberSchema = z.object({
  userId: z.number().int(),
  nickname: z.string(),
  /** Masked, e.g. 138****0001. */
  mobile: z.string().nullable(),
  role: roleSchema,
  gradeDirectorOf: z.array(z.number().int()),
  classTeacherOf: z.array(z.number().int()),
  assignments: z.array(z.object({ classId: z.number().int(), subjectId: z.number().int() })),
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.array(memberSchema);

/** PUT /api/org/schools/:orgId/members/:id: role and duties, each replaced as a whole. */
export const updateMemberSchema = z.object({
  role: roleSchema,
  gradeDirectorOf: z.array(id).max(50).default([]),
  classTeacherOf: z.array(id).max(200).default([]),
  assignments: z.array(assignmentSchema).max(500).default([]),
});
export type UpdateMember = z.output<typeof updateMemberSchema>;

/** PUT /api/org/default: switch the school one works in. */
export const switchSchoolSchema = z.object({ orgId: id });

// ---- invitations ---------------------------------------------------------------------------------

export const invitationRoleSchema = z.enum(['admin', 'teacher']);

/** POST /api/org/schools/:orgId/invitations */
export const createInvitationSchema = z.object({
  role: invitationRoleSchema.default('teacher'),
  schoolYearId: id.nullable().default(null),
  classIds: z.array(id).max(100).default([]),
  subjectIds: z.array(id).max(30).default([]),
  expiresInDays: z.coerce.number().int().min(1, '有效期 1 到 30 天').max(30, '有效期 1 到 30 天').default(7),
  maxUses: z.coerce.number().int().min(1, '可用次数 1 到 500').max(500, '可用次数 1 到 500').default(1),
});
export type CreateInvitation = z.output<typeof createInvitationSchema>;

export const INVITATION_STATUSES = ['active', 'expired', 'usedUp', 'revoked'] as const;
export const invitationStatusSchema = z.enum(INVITATION_STATUSES);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;
export const INVITATION_STATUS_LABELS: Record<InvitationStatus, string> = {
  active: '待使用',
  expired: '已过期',
  usedUp: '已用完',
  revoked: '已撤销',
};

export const invitationSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  code: z.string(),
  role: invitationRoleSchema,
  schoolYearId: z.number().int().nullable(),
  classIds: z.array(z.number().int()),
  subjectIds: z.array(z.number().int()),
  maxUses: z.number().int(),
  usedCount: z.number().int(),
  expiresAt: z.string(),
  status: invitationStatusSchema,
  createdAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationListSchema = z.array(invitationSchema);

/** GET /api/invitations/preview?token= or ?code= (no login needed): what the link offers. */
export const invitationLookupSchema = z
  .object({
    token: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, '邀请链接无效')
      .optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, '邀请码为 6 位数字')
      .optional(),
  })
  .refine((v) => v.token !== undefined || v.code !== undefined, { message: '请提供邀请链接或邀请码' });
export type InvitationLookup = z.infer<typeof invitationLookupSchema>;

export const invitationPreviewSchema = z.object({
  schoolName: z.string(),
  inviterName: z.string().nullable(),
  role: invitationRoleSchema,
  expiresAt: z.string(),
  status: invitationStatusSchema,
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** Where an invitation link points: the portal's /invite page. */
export const invitationPath = (token: string) => `/invite?token=${encodeURIComponent(token)}`;
