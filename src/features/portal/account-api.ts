/** The account calls of the portal, over the HTTP client the entry provides. */
import {
  avatarResponseSchema,
  captchaSchema,
  currentUserSchema,
  smsCodeResponseSchema,
  type ChangePasswordRequest,
  type ResetPasswordRequest,
  type SmsPurpose,
} from '../../shared/contract/auth';
import type { HttpClient } from '../../shared/adapters/http-client';

export const fetchCaptcha = (http: HttpClient) => http.get('/api/captcha', undefined, captchaSchema);

export const sendSmsCode = (http: HttpClient, mobile: string, purpose: SmsPurpose) =>
  http.postJson('/api/sms/code', { mobile, purpose }, smsCodeResponseSchema);

export const resetPassword = (http: HttpClient, form: ResetPasswordRequest) => http.postJson('/api/user/password/reset', form);

export const fetchCurrentUser = (http: HttpClient) => http.get('/api/user/info', undefined, currentUserSchema);

export const updateProfile = (http: HttpClient, nickname: string) =>
  http.putJson('/api/user/profile', { nickname }, currentUserSchema);

export const changePassword = (http: HttpClient, form: ChangePasswordRequest) => http.putJson('/api/user/password', form);

export const changeMobile = (http: HttpClient, mobile: string, smsCode: string) =>
  http.putJson('/api/user/mobile', { mobile, smsCode }, currentUserSchema);

export function uploadAvatar(http: HttpClient, file: Blob, onProgress?: (ratio: number) => void) {
  const form = new FormData();
  form.append('file', file);
  return http.upload('/api/user/avatar', form, { onProgress }, avatarResponseSchema);
}
