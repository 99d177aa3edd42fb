/**
 * The one axios instance of an entry, and the request helpers of spec §7. Owns: the bearer header, the
 * timeouts, what counts as success (HTTP 200 carrying envelope code 200), the error catalogue of spec
 * §8 (toasts through `notify`, rejections as ApiRequestError) and saving downloaded files.
 * Does not own the session: on a 401 or an invalid refresh token it only reports through
 * `onUnauthorized`; whether to log out is the session machine's decision.
 * One failure, one message: the same message is not toasted again while it is still on screen, so
 * several requests failing for one reason (a page's parallel loads all answering 403, a retried load)
 * show it once.
 */
import axios, {
  AxiosHeaders,
  type AxiosError,
  type AxiosInstance,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import type { z } from 'zod';
import {
  OAUTH_BASIC_HEADER,
  REFRESH_TOKEN_INVALID_MESSAGE,
  UNAUTHORIZED_MESSAGE,
  tokenResponseSchema,
  type PasswordGrant,
  type RefreshGrant,
  type SmsGrant,
  type TokenResponse,
} from '../contract/auth';
import { MESSAGES, SUCCESS_CODE } from '../contract/envelope';

export const ERROR_MESSAGE_DURATION_MS = 5000;
export const REQUEST_TIMEOUT_MS = 100_000;
export const TRANSFER_TIMEOUT_MS = 420_000;

export const NETWORK_ERROR_MESSAGE = '网络连接失败，请检查网络后重试';
export const TIMEOUT_MESSAGE = '请求超时，请稍后重试';
export const CANCELED_MESSAGE = '请求已取消';

export const TOKEN_PATH = '/api/oauth/oauth/token';
export const SIGN_OUT_PATH = '/api/oauth/signout';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not toast this request's failure (the caller shows it inline). It is still rejected. */
    silent?: boolean;
    /** Replaces the catalogue message of any failure that is not about the session (downloads). */
    failureMessage?: string;
  }
}

export type UnauthorizedReason = 'status401' | 'refreshInvalid';

export type HttpClientOptions = {
  baseURL?: string;
  getAccessToken: () => string | null;
  onUnauthorized: (reason: UnauthorizedReason) => void;
  notify: (message: string, durationMs: number) => void;
  /** Saves a downloaded file; defaults to an anchor click on an object URL. Tests pass a fake. */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** The clock deciding whether a message is still on screen (tests pass a fake). */
  now?: () => number;
};

/** Why a request failed: the server answered (`http`), or it did not (`network`, `timeout`, `canceled`), or its answer broke the contract (`invalid`). */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'canceled' | 'invalid';

/** Every helper rejects with this. `message` is the Chinese text to show; `status` is 0 when no answer came. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  readonly status: number;
  /** The envelope's code, or null when there was no envelope. */
  readonly code: number | null;
  readonly kind: ApiErrorKind;

  constructor(message: string, status: number, code: number | null, kind: ApiErrorKind = 'http') {
    super(message);
    this.status = status;
    this.code = code;
    this.kind = kind;
  }
}

/** The last argument of every helper: a response schema, or options that may carry one. */
export type CallOptions<T = unknown> = {
  schema?: z.ZodType<T>;
  silent?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};
type SchemaOrOptions<T> = z.ZodType<T> | CallOptions<T>;

export type QueryParams = Record<string, unknown>;
export type FormFieldValue = string | number | boolean | null | undefined;
export type FormBody = Record<string, FormFieldValue | readonly (string | number | boolean)[]>;
export type UploadOptions = { onProgress?: (ratio: number) => void };

export type HttpClient = {
  axios: AxiosInstance;
  get<T = unknown>(url: string, params?: QueryParams, schema?: SchemaOrOptions<T>): Promise<T>;
  postForm<T = unknown>(url: string, body: FormBody, schema?: SchemaOrOptions<T>): Promise<T>;
  postJson<T = unknown>(url: string, body: unknown, schema?: SchemaOrOptions<T>): Promise<T>;
  putForm<T = unknown>(url: string, body: FormBody, schema?: SchemaOrOptions<T>): Promise<T>;
  putJson<T = unknown>(url: string, body: unknown, schema?: SchemaOrOptions<T>): Promise<T>;
  patchJson<T = unknown>(url: string, body: unknown, schema?: SchemaOrOptions<T>): Promise<T>;
  putFile<T = unknown>(url: string, file: Blob, schema?: SchemaOrOptions<T>): Promise<T>;
  putMultipart<T = unknown>(url: string, body: FormData | Record<string, unknown>, schema?: SchemaOrOptions<T>): Promise<T>;
  deleteQuery<T = unknown>(url: string, params?: QueryParams, schema?: SchemaOrOptions<T>): Promise<T>;
  deleteForm<T = unknown>(url: string, body?: FormBody, schema?: SchemaOrOptions<T>): Promise<T>;
  upload<T = unknown>(url: string, body: FormData, options?: UploadOptions, schema?: SchemaOrOptions<T>): Promise<T>;
  /** POSTs JSON, saves the answer under `fileName`. A failure toasts 题量过大，下载失败 (spec §8). */
  download(url: string, body: unknown, fileName: string, options?: Omit<CallOptions, 'schema'>): Promise<void>;
  /** GET variant of download. */
  downloadGet(
    url: string,
    params: QueryParams | undefined,
    fileName: string,
    options?: Omit<CallOptions, 'schema'>,
  ): Promise<void>;
};

// ---- pure pieces -----------------------------------------------------------------------------

/** The entries whose value is neither null nor undefined (spec §5: such fields are not sent). */
export function withoutEmpty<V>(record: Record<string, V | null | undefined> | undefined): Record<string, V> {
  const result: Record<string, V> = {};
  for (const [key, value] of Object.entries(record ?? {})) if (value !== null && value !== undefined) result[key] = value;
  return result;
}

/** A form-urlencoded body without null or undefined fields; arrays become repeated fields. */
export function toFormBody(body: FormBody | undefined): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(withoutEmpty(body))) {
    if (Array.isArray(value)) for (const item of value) form.append(key, String(item));
    else form.append(key, String(value));
  }
  return form;
}

/** Multipart fields from a plain record: Blobs as files, other values as text, null/undefined left out. */
export function toFormData(body: FormData | Record<string, unknown>): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [key, value] of Object.entries(withoutEmpty(body))) {
    if (value instanceof Blob) form.append(key, value, value instanceof File ? value.name : key);
    else form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
}

type Envelope = { code: number; msg: string; data: unknown };

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).code === 'number' && 'data' in body;
}

/** What a failed answer means, per the catalogue of spec §8. */
export type Failure = {
  message: string;
  status: number;
  code: number | null;
  kind: ApiErrorKind;
  unauthorized: UnauthorizedReason | null;
};

/** Maps an answer that is not a success (HTTP status and body) to the catalogue. */
export function describeFailure(status: number, body: unknown, failureMessage?: string): Failure {
  const envelope = isEnvelope(body) ? body : null;
  const code = envelope?.code ?? null;
  const serverMessage = typeof (body as Envelope | null)?.msg === 'string' ? (body as Envelope).msg.trim() : '';
  const fail = (message: string, unauthorized: UnauthorizedReason | null = null): Failure => ({
    message: unauthorized === null && failureMessage ? failureMessage : message,
    status,
    code,
    kind: 'http',
    unauthorized,
  });
  // HTTP 200 carrying another code is judged by that code.
  const effective = status === SUCCESS_CODE && code !== null ? code : status;
  if (serverMessage === REFRESH_TOKEN_INVALID_MESSAGE) return fail(REFRESH_TOKEN_INVALID_MESSAGE, 'refreshInvalid');
  if (effective === 401) return fail(serverMessage || UNAUTHORIZED_MESSAGE, 'status401');
  if (effective === 404) return fail(MESSAGES.notFound);
  if (effective === 403) return fail(MESSAGES.forbidden);
  if (body === null || body === undefined || body === '' || !serverMessage) return fail(MESSAGES.internal);
  return fail(serverMessage);
}

/** Maps an axios failure with no answer (or a cancelled one) to the catalogue. */
export function describeTransportFailure(error: AxiosError, failureMessage?: string): Failure {
  const base = { status: 0, code: null, unauthorized: null };
  if (axios.isCancel(error)) return { ...base, message: CANCELED_MESSAGE, kind: 'canceled' };
  const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
  const message = timedOut ? TIMEOUT_MESSAGE : NETWORK_ERROR_MESSAGE;
  return { ...base, message: failureMessage ?? message, kind: timedOut ? 'timeout' : 'network' };
}

function isSchema<T>(value: SchemaOrOptions<T> | undefined): value is z.ZodType<T> {
  return typeof value === 'object' && value !== null && typeof (value as z.ZodType<T>).safeParse === 'function';
}

function toCallOptions<T>(value: SchemaOrOptions<T> | undefined): CallOptions<T> {
  if (value === undefined) return {};
  return isSchema(value) ? { schema: value } : value;
}

/** Saves a blob under a file name the way browsers allow: a temporary object URL and a clicked anchor. */
export function saveBlobWithAnchor(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoke later: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// ---- the client ------------------------------------------------------------------------------

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { getAccessToken, onUnauthorized, notify } = options;
  const saveBlob = options.saveBlob ?? saveBlobWithAnchor;
  const now = options.now ?? Date.now;
  /** When each message shown last went up, to show one failure once. */
  const shownAt = new Map<string, number>();

  function notifyOnce(message: string) {
    const at = now();
    const previous = shownAt.get(message);
    if (previous !== undefined && at - previous < ERROR_MESSAGE_DURATION_MS) return;
    shownAt.set(message, at);
    notify(message, ERROR_MESSAGE_DURATION_MS);
  }
  const instance = axios.create({
    baseURL: options.baseURL,
    timeout: REQUEST_TIMEOUT_MS,
    // Spec §7: only HTTP 200 is success; everything else takes the error path.
    validateStatus: (status) => status === SUCCESS_CODE,
  });

  /** Reports a failure (session callback, toast) and returns the error to reject with. */
  function reject(failure: Failure, silent: boolean | undefined): ApiRequestError {
    if (failure.unauthorized) onUnauthorized(failure.unauthorized);
    else if (!silent && failure.kind !== 'canceled') notifyOnce(failure.message);
    return new ApiRequestError(failure.message, failure.status, failure.code, failure.kind);
  }

  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    const headers = AxiosHeaders.from(config.headers);
    if (!headers.has('Authorization')) {
      const token = getAccessToken();
      if (token) headers.set('Authorization', `Bearer ${token}`);
    }
    config.headers = headers;
    return config;
  });

  instance.interceptors.response.use(
    (response: AxiosResponse) => {
      // Files are not wrapped in the envelope; download() checks them itself.
      if (response.config.responseType === 'blob') return response;
      const body: unknown = response.data;
      if (isEnvelope(body) && body.code === SUCCESS_CODE) return response;
      throw reject(describeFailure(response.status, body, response.config.failureMessage), response.config.silent);
    },
    (error: unknown) => {
      if (error instanceof ApiRequestError) throw error;
      if (!axios.isAxiosError(error)) throw error;
      const config = error.config;
      const failure = error.response
        ? describeFailure(error.response.status, error.response.data, config?.failureMessage)
        : describeTransportFailure(error, config?.failureMessage);
      throw reject(failure, config?.silent);
    },
  );

  function parse<T>(data: unknown, call: CallOptions<T>): T {
    if (!call.schema) return data as T;
    const parsed = call.schema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw reject(
      { message: MESSAGES.internal, status: SUCCESS_CODE, code: SUCCESS_CODE, kind: 'invalid', unauthorized: null },
      call.silent,
    );
  }

  function axiosConfig(call: CallOptions<unknown>, extra: AxiosRequestConfig = {}): AxiosRequestConfig {
    return {
      ...extra,
      headers: { ...(extra.headers as Record<string, string> | undefined), ...call.headers },
      signal: call.signal,
      silent: call.silent,
    };
  }

  async function send<T>(
    config: AxiosRequestConfig,
    schemaOrOptions: SchemaOrOptions<T> | undefined,
    extra: AxiosRequestConfig = {},
  ): Promise<T> {
    const call = toCallOptions(schemaOrOptions);
    const response = await instance.request<Envelope>({ ...config, ...axiosConfig(call, extra) });
    return parse(response.data.data, call);
  }

  const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8' };
  const jsonHeaders = { 'Content-Type': 'application/json;charset=utf-8' };

  async function fetchFile(config: AxiosRequestConfig, fileName: string, call: Omit<CallOptions, 'schema'>): Promise<void> {
    const response = await instance.request<Blob>({
      ...config,
      ...axiosConfig(call, { timeout: TRANSFER_TIMEOUT_MS, responseType: 'blob', failureMessage: MESSAGES.downloadFailed }),
    });
    const blob = response.data;
    // A failure may still come as HTTP 200 with a JSON envelope instead of the file.
    if (blob.type.startsWith('application/json')) {
      const body = await readJson(blob);
      if (isEnvelope(body) && body.code !== SUCCESS_CODE) {
        throw reject(describeFailure(response.status, body, MESSAGES.downloadFailed), call.silent);
      }
    }
    try {
      saveBlob(blob, fileName);
    } catch {
      throw reject(
        { message: MESSAGES.downloadFailed, status: SUCCESS_CODE, code: null, kind: 'invalid', unauthorized: null },
        call.silent,
      );
    }
  }

  return {
    axios: instance,
    get: (url, params, schema) => send({ method: 'GET', url, params: withoutEmpty(params) }, schema),
    postForm: (url, body, schema) => send({ method: 'POST', url, data: toFormBody(body) }, schema, { headers: formHeaders }),
    postJson: (url, body, schema) => send({ method: 'POST', url, data: body }, schema, { headers: jsonHeaders }),
    putForm: (url, body, schema) => send({ method: 'PUT', url, data: toFormBody(body) }, schema, { headers: formHeaders }),
    putJson: (url, body, schema) => send({ method: 'PUT', url, data: body }, schema, { headers: jsonHeaders }),
    patchJson: (url, body, schema) => send({ method: 'PATCH', url, data: body }, schema, { headers: jsonHeaders }),
    putFile: (url, file, schema) =>
      send({ method: 'PUT', url, data: file }, schema, { headers: { 'Content-Type': file.type || 'application/octet-stream' } }),
    putMultipart: (url, body, schema) => send({ method: 'PUT', url, data: toFormData(body) }, schema),
    deleteQuery: (url, params, schema) => send({ method: 'DELETE', url, params: withoutEmpty(params) }, schema),
    deleteForm: (url, body, schema) => send({ method: 'DELETE', url, data: toFormBody(body) }, schema, { headers: formHeaders }),
    upload: (url, body, uploadOptions, schema) =>
      send({ method: 'POST', url, data: body }, schema, {
        timeout: TRANSFER_TIMEOUT_MS,
        onUploadProgress: (event) => {
          if (uploadOptions?.onProgress && event.total) uploadOptions.onProgress(Math.min(1, event.loaded / event.total));
        },
      }),
    download: (url, body, fileName, call = {}) =>
      fetchFile({ method: 'POST', url, data: body, headers: jsonHeaders }, fileName, call),
    downloadGet: (url, params, fileName, call = {}) =>
      fetchFile({ method: 'GET', url, params: withoutEmpty(params) }, fileName, call),
  };
}

async function readJson(blob: Blob): Promise<unknown> {
  try {
    return JSON.parse(await blob.text()) as unknown;
  } catch {
    return null;
  }
}

// ---- auth endpoints --------------------------------------------------------------------------

/**
 * POST /api/oauth/oauth/token, form-encoded with the Basic client header: a password, SMS or refresh
 * grant, answered with tokens and the user. Silent by default: the login form and the session machine
 * show or handle the failure themselves.
 */
export function requestToken(
  http: HttpClient,
  form: PasswordGrant | SmsGrant | RefreshGrant,
  options: { silent?: boolean } = {},
): Promise<TokenResponse> {
  return http.postForm(TOKEN_PATH, form, {
    schema: tokenResponseSchema,
    silent: options.silent ?? true,
    headers: { Authorization: OAUTH_BASIC_HEADER },
  });
}

/** DELETE /api/oauth/signout with the given access token (the one being ended, not whatever is current). Silent. */
export async function requestSignOut(http: HttpClient, accessToken: string): Promise<void> {
  await http.deleteQuery(SIGN_OUT_PATH, undefined, { silent: true, headers: { Authorization: `Bearer ${accessToken}` } });
}
