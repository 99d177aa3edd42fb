/**
 * Accounts and sessions: the payloads of /api/oauth/*, /api/captcha, /api/sms/*, /api/user/* and
 * /api/dev/outbox. Imported by the client and the server alike.
 */
import { z } from 'zod';
import { text } from './primitives';

/** The portal is a public OAuth client: this pair identifies it, it is not a secret. */
export const OAUTH_CLIENT = { id: 'teacher-web', secret: 'teacher-web' } as const;
/** `Authorization` header value the token endpoint requires (HTTP Basic of OAUTH_CLIENT). */
export const OAUTH_BASIC_HEADER = `Basic ${btoa(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`)}`;

/** The message that means "refresh token invalid": the client clears the session when it sees it. */
export const REFRESH_TOKEN_INVALID_MESSAGE = '登录状态已失效（刷新令牌无效），请重新登录';
/** Answered with 401 when the access token is missing, expired or revoked. */
export const UNAUTHORIZED_MESSAGE = '登录已失效，请重新登录';

/** Renew the access token when less than this remains before it expires (spec §4, §9). */
export const TOKEN_REFRESH_THRESHOLD_MS = 300_000;

// Form rule messages (spec §5), word for word.
export const FORM_MESSAGES = {
  username: '请输入用户名',
  password: '请输入密码',
  captcha: '请输入图形验证码',
  nickname: '请输入昵称',
  smsCode: '请输入短信验证码',
  mobile: '请输入正确的手机号码',
  passwordMismatch: '两次输入的密码不一致',
  passwordWeak: '密码至少 8 位，且需同时包含字母和数字',
} as const;

export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const mobileSchema = text().trim().regex(MOBILE_PATTERN, FORM_MESSAGES.mobile);
export const passwordSchema = text()
  .min(8, FORM_MESSAGES.passwordWeak)
  .max(64, '密码不能超过 64 位')
  .regex(/[A-Za-z]/, FORM_MESSAGES.passwordWeak)
  .regex(/\d/, FORM_MESSAGES.passwordWeak);
export const smsCodeSchema = text()
  .trim()
  .regex(/^\d{6}$/, '短信验证码为 6 位数字');

// ---- current user ----------------------------------------------------------------------------

/** The user's default school and school year, and their rights there (spec §3 userGradeInfo). */
export const userGradeInfoSchema = z.object({
  orgDefaultId: z.number().int().nullable(),
  orgName: z.string().nullable(),
  gradeDirector: z.boolean(),
  isCreator: z.boolean(),
  /** The default school year (class tree node of type 1) in the default org, if chosen. */
  classDefaultId: z.number().int().nullable(),
  classDefaultName: z.string().nullable(),
});
export type UserGradeInfo = z.infer<typeof userGradeInfoSchema>;

export const roleSchema = z.enum(['creator', 'admin', 'teacher']);
export type Role = z.infer<typeof roleSchema>;

export const currentUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  /** Masked for display, e.g. 138****0001; null when none is bound. */
  mobile: z.string().nullable(),
  /** Relative image path, shown prefixed by the image base URL; null for the default avatar. */
  avatar: z.string().nullable(),
  wechatBound: z.boolean(),
  userGradeInfo: userGradeInfoSchema,
  orgs: z.array(z.object({ id: z.number().int(), name: z.string(), role: roleSchema, gradeDirector: z.boolean() })),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

// ---- tokens ----------------------------------------------------------------------------------

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until the access token expires. */
  expires_in: z.number().int().positive(),
  user: currentUserSchema,
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** POST /api/oauth/oauth/token, form-encoded, with the Basic client header. */
export const passwordGrantSchema = z.object({
  grant_type: z.literal('password'),
  username: text().trim().min(1, FORM_MESSAGES.username).max(64),
  password: text().min(1, FORM_MESSAGES.password).max(128),
  captchaKey: text().min(1, FORM_MESSAGES.captcha).max(64),
  captcha: text().trim().min(1, FORM_MESSAGES.captcha).max(16),
});
export const smsGrantSchema = z.object({
  grant_type: z.literal('sms'),
  mobile: mobileSchema,
  smsCode: smsCodeSchema,
});
export const refreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: text().min(1).max(256),
});
export const tokenRequestSchema = z.discriminatedUnion('grant_type', [passwordGrantSchema, smsGrantSchema, refreshGrantSchema]);
export type PasswordGrant = z.infer<typeof passwordGrantSchema>;
export type SmsGrant = z.infer<typeof smsGrantSchema>;
export type RefreshGrant = z.infer<typeof refreshGrantSchema>;

// ---- captcha and SMS -------------------------------------------------------------------------

/** GET /api/captcha */
export const captchaSchema = z.object({ captchaKey: z.string(), svg: z.string(), expiresIn: z.number().int() });
export type Captcha = z.infer<typeof captchaSchema>;

export const smsPurposeSchema = z.enum(['login', 'register', 'reset', 'bind']);
export type SmsPurpose = z.infer<typeof smsPurposeSchema>;
/** POST /api/sms/code (JSON or form). Answers { cooldown: seconds before another may be sent }. */
export const smsCodeRequestSchema = z.object({ mobile: mobileSchema, purpose: smsPurposeSchema });
export const smsCodeResponseSchema = z.object({ cooldown: z.number().int() });

/** GET /api/dev/outbox (only with DEV_OUTBOX=true outside production, loopback callers only), latest first. */
export const devOutboxSchema = z.object({
  sms: z.array(z.object({ mobile: z.string(), code: z.string(), purpose: smsPurposeSchema })),
  captcha: z.array(z.object({ key: z.string(), text: z.string() })),
});
export type DevOutbox = z.infer<typeof devOutboxSchema>;

// ---- registration, password and profile ------------------------------------------------------

/** A new password, typed twice. */
const newPasswordShape = { password: passwordSchema, password2: text().min(1, FORM_MESSAGES.password).max(128) };
const samePasswords = (value: { password: string; password2: string }) => value.password === value.password2;
const passwordMismatch = { message: FORM_MESSAGES.passwordMismatch, path: ['password2'] };

/** POST /api/user/register (JSON). Answers a TokenResponse: the new account is logged in. */
export const registerRequestSchema = z
  .object({
    nickname: text().trim().min(1, FORM_MESSAGES.nickname).max(32, '昵称不能超过 32 个字'),
    mobile: mobileSchema,
    smsCode: smsCodeSchema,
    ...newPasswordShape,
  })
  .refine(samePasswords, passwordMismatch);
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** POST /api/user/password/reset (JSON), by SMS, logged out. */
export const resetPasswordRequestSchema = z
  .object({ mobile: mobileSchema, smsCode: smsCodeSchema, ...newPasswordShape })
  .refine(samePasswords, passwordMismatch);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** PUT /api/user/password (JSON), logged in. Revokes the user's other sessions. */
export const changePasswordRequestSchema = z
  .object({ oldPassword: text().min(1, FORM_MESSAGES.password).max(128), ...newPasswordShape })
  .refine(samePasswords, passwordMismatch);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

/** PUT /api/user/profile (JSON). Answers the CurrentUser. */
export const updateProfileRequestSchema = z.object({
  nickname: text().trim().min(1, FORM_MESSAGES.nickname).max(32, '昵称不能超过 32 个字'),
});

/** PUT /api/user/mobile (JSON): bind a new mobile, proven by an SMS code of purpose `bind`. */
export const changeMobileRequestSchema = z.object({ mobile: mobileSchema, smsCode: smsCodeSchema });

/** POST /api/user/avatar (multipart, field `file`): png, jpeg, webp or gif, at most 2 MiB. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const avatarResponseSchema = z.object({ avatar: z.string() });
