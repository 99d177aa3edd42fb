import { z } from 'zod';

/**
 * Every API answer is wrapped in this envelope. `code` repeats the HTTP status (only 200 is success);
 * `msg` is a Chinese message a person can read; `data` is the payload, or null on failure.
 */
export const SUCCESS_CODE = 200;

export const envelopeSchema = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), msg: z.string(), data });

export type Envelope<T> = { code: number; msg: string; data: T };

/** The spec's error catalogue (section 8): messages that both server and client use word for word. */
export const MESSAGES = {
  notFound: '很抱歉，资源未找到',
  forbidden: '很抱歉，您暂无该操作权限',
  internal: '系统内部异常，请联系网站管理员',
  downloadFailed: '题量过大，下载失败',
  scanNeedsSchoolYear: '请选择学年后再进行扫描',
  ok: '操作成功',
} as const;
