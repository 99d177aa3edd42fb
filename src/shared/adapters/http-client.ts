/**
 * The HTTP client of an entry (the browser's fetch; XMLHttpRequest only for uploads that report progress),
 * and the request helpers of spec §7. Owns: the bearer header, the timeouts, what counts as success (HTTP
 * 200 carrying envelope code 200), the error catalogue of spec §8 (toasts through `notify`, rejections as
 * ApiRequestError) and saving downloaded files.
 * Does not own the session: on a 401 or an invalid refresh token it only reports through
 * `onUnauthorized`; whether to log out is the session machine's decision.
 * One failure, one message: the same message is not toasted again while it is still on screen, so
 * several requests failing for one reason (a page's parallel loads all answering 403, a retried load)
 * show it once.
 */
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
  /** Sends a request over the network; defaults to fetch (XMLHttpRequest for upload progress). Tests pass a fake. */
  transport?: Transport;
};

/** One request as the transport sends it: the URL carries the query, the body is ready to send. */
export type TransportRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData | Blob;
  /** 'blob' reads a successful answer as a file; any other answer is read as JSON (or text, if it is not JSON). */
  responseType: 'json' | 'blob';
  /** Aborted on the request's timeout or by the caller's signal. */
  signal: AbortSignal;
  onUploadProgress?: (loaded: number, total: number) => void;
};
/** The answer: its HTTP status and body (parsed JSON, text, '' when empty, or a Blob). */
export type TransportResponse = { status: number; body: unknown };
/** Resolves with any answer, whatever its status; rejects when no answer came (network failure, abort). */
export type Transport = (request: TransportRequest) => Promise<TransportResponse>;

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
  /** Do not toast this request's failure (the caller shows it inline). It is still rejected. */
  silent?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};
type SchemaOrOptions<T> = z.ZodType<T> | CallOptions<T>;

export type QueryParams = Record<string, unknown>;
export type FormFieldValue = string | number | boolean | null | undefined;
export type FormBody = Record<string, FormFieldValue | readonly (string | number | boolean)[]>;
export type UploadOptions = { onProgress?: (ratio: number) => void };
export type BlobOptions = Omit<CallOptions, 'schema'> & {
  /** Replaces the catalogue message of any failure that is not about the session. */
  failureMessage?: string;
};

export type HttpClient = {
  /**
   * GETs a file without saving it (an image behind the bearer header, which a plain <img src> cannot
   * carry; a PDF to open in a tab). A JSON error envelope answered instead of the file is a failure.
   */
  getBlob(url: string, params?: QueryParams, options?: BlobOptions): Promise<Blob>;
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

/** Maps a request that got no answer (or was cancelled) to the catalogue. */
export function describeTransportFailure(reason: 'timeout' | 'network' | 'canceled', failureMessage?: string): Failure {
  const base = { status: 0, code: null, unauthorized: null };
  if (reason === 'canceled') return { ...base, message: CANCELED_MESSAGE, kind: 'canceled' };
  const message = reason === 'timeout' ? TIMEOUT_MESSAGE : NETWORK_ERROR_MESSAGE;
  return { ...base, message: failureMessage ?? message, kind: reason };
}

/** A query string of the fields that are neither null nor undefined; arrays become repeated fields. */
export function withQuery(url: string, params: QueryParams | undefined): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(withoutEmpty(params))) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) query.append(key, item instanceof Date ? item.toISOString() : String(item));
  }
  const text = query.toString();
  if (!text) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** A body read as text: JSON when it parses, else the text itself ('' when empty). */
export function parseBody(text: string): unknown {
  if (!text) return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The default transport: fetch, or XMLHttpRequest when the caller wants upload progress (fetch cannot report it). */
export const browserTransport: Transport = (request) =>
  request.onUploadProgress ? xhrTransport(request) : fetchTransport(request);

async function fetchTransport(request: TransportRequest): Promise<TransportResponse> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
  });
  if (request.responseType === 'blob' && response.status === SUCCESS_CODE) {
    return { status: response.status, body: await response.blob() };
  }
  return { status: response.status, body: parseBody(await response.text()) };
}

function xhrTransport(request: TransportRequest): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const { signal, onUploadProgress } = request;
    const onAbort = () => xhr.abort();
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.open(request.method, request.url);
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.responseType = request.responseType === 'blob' ? 'blob' : 'text';
    if (onUploadProgress) {
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onUploadProgress(event.loaded, event.total);
      };
    }
    xhr.onload = () => {
      done();
      if (xhr.responseType === 'blob') {
        const blob = xhr.response as Blob;
        if (xhr.status === SUCCESS_CODE) resolve({ status: xhr.status, body: blob });
        else void blob.text().then((text) => resolve({ status: xhr.status, body: parseBody(text) }), reject);
      } else resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('Network request failed'));
    };
    xhr.onabort = () => {
      done();
      reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    if (signal.aborted) {
      reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.send(request.body ?? null);
  });
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
  const transport = options.transport ?? browserTransport;
  const baseURL = options.baseURL ?? '';

  /** Reports a failure (session callback, toast) and returns the error to reject with. */
  function reject(failure: Failure, silent: boolean | undefined): ApiRequestError {
    if (failure.unauthorized) onUnauthorized(failure.unauthorized);
    else if (!silent && failure.kind !== 'canceled') notifyOnce(failure.message);
    return new ApiRequestError(failure.message, failure.status, failure.code, failure.kind);
  }

  type Request = {
    method: TransportRequest['method'];
    url: string;
    params?: QueryParams;
    body?: TransportRequest['body'];
    headers?: Record<string, string>;
    responseType?: TransportRequest['responseType'];
    timeoutMs?: number;
    failureMessage?: string;
    onUploadProgress?: TransportRequest['onUploadProgress'];
  };

  /**
   * Sends a request and returns its answer if it is HTTP 200; any other answer, no answer, a timeout or
   * the caller's cancelling is reported and rejected as an ApiRequestError. A JSON answer must also carry
   * code 200 (files are not wrapped in the envelope: the callers check them).
   */
  async function request(req: Request, call: Omit<CallOptions, 'schema'>): Promise<TransportResponse> {
    const headers: Record<string, string> = { ...req.headers, ...call.headers };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) {
      const token = getAccessToken();
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(TIMEOUT_MESSAGE, 'TimeoutError'));
    }, req.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const cancel = () => controller.abort(call.signal?.reason);
    if (call.signal?.aborted) cancel();
    else call.signal?.addEventListener('abort', cancel, { once: true });

    let response: TransportResponse;
    try {
      if (controller.signal.aborted) throw controller.signal.reason;
      response = await transport({
        method: req.method,
        url: withQuery(baseURL + req.url, req.params),
        headers,
        body: req.body,
        responseType: req.responseType ?? 'json',
        signal: controller.signal,
        onUploadProgress: req.onUploadProgress,
      });
    } catch {
      const reason = timedOut ? 'timeout' : call.signal?.aborted ? 'canceled' : 'network';
      throw reject(describeTransportFailure(reason, req.failureMessage), call.silent);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', cancel);
    }
    // Spec §7: only HTTP 200 is success; everything else takes the error path.
    const succeeded =
      response.status === SUCCESS_CODE &&
      (response.body instanceof Blob
        ? req.responseType === 'blob'
        : isEnvelope(response.body) && response.body.code === SUCCESS_CODE);
    if (!succeeded) throw reject(describeFailure(response.status, response.body, req.failureMessage), call.silent);
    return response;
  }

  function parse<T>(data: unknown, call: CallOptions<T>): T {
    if (!call.schema) return data as T;
    const parsed = call.schema.safeParse(data);
    if (parsed.success) return parsed.data;
    throw reject(
      { message: MESSAGES.internal, status: SUCCESS_CODE, code: SUCCESS_CODE, kind: 'invalid', unauthorized: null },
      call.silent,
    );
  }

  async function send<T>(req: Request, schemaOrOptions: SchemaOrOptions<T> | undefined): Promise<T> {
    const call = toCallOptions(schemaOrOptions);
    const response = await request(req, call);
    return parse((response.body as Envelope).data, call);
  }

  const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8' };
  const jsonHeaders = { 'Content-Type': 'application/json;charset=utf-8' };
  const json = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

  async function fetchBlob(req: Request, call: BlobOptions): Promise<Blob> {
    const failureMessage = call.failureMessage ?? req.failureMessage;
    const response = await request({ ...req, responseType: 'blob', failureMessage }, call);
    const blob = response.body as Blob;
    // A failure may still come as HTTP 200 with a JSON envelope instead of the file.
    if (blob.type.startsWith('application/json')) {
      const body = await readJson(blob);
      if (isEnvelope(body) && body.code !== SUCCESS_CODE) {
        throw reject(describeFailure(response.status, body, failureMessage), call.silent);
      }
    }
    return blob;
  }

  async function fetchFile(req: Request, fileName: string, call: Omit<CallOptions, 'schema'>): Promise<void> {
    const blob = await fetchBlob({ ...req, timeoutMs: TRANSFER_TIMEOUT_MS, failureMessage: MESSAGES.downloadFailed }, call);
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
    getBlob: (url, params, call = {}) => fetchBlob({ method: 'GET', url, params }, call),
    get: (url, params, schema) => send({ method: 'GET', url, params }, schema),
    postForm: (url, body, schema) => send({ method: 'POST', url, body: toFormBody(body), headers: formHeaders }, schema),
    postJson: (url, body, schema) => send({ method: 'POST', url, body: json(body), headers: jsonHeaders }, schema),
    putForm: (url, body, schema) => send({ method: 'PUT', url, body: toFormBody(body), headers: formHeaders }, schema),
    putJson: (url, body, schema) => send({ method: 'PUT', url, body: json(body), headers: jsonHeaders }, schema),
    patchJson: (url, body, schema) => send({ method: 'PATCH', url, body: json(body), headers: jsonHeaders }, schema),
    putFile: (url, file, schema) =>
      send({ method: 'PUT', url, body: file, headers: { 'Content-Type': file.type || 'application/octet-stream' } }, schema),
    // No Content-Type: the browser writes multipart's with its boundary.
    putMultipart: (url, body, schema) => send({ method: 'PUT', url, body: toFormData(body) }, schema),
    deleteQuery: (url, params, schema) => send({ method: 'DELETE', url, params }, schema),
    deleteForm: (url, body, schema) => send({ method: 'DELETE', url, body: toFormBody(body), headers: formHeaders }, schema),
    upload: (url, body, uploadOptions, schema) => {
      const onProgress = uploadOptions?.onProgress;
      return send(
        {
          method: 'POST',
          url,
          body,
          timeoutMs: TRANSFER_TIMEOUT_MS,
          onUploadProgress: onProgress
            ? (loaded, total) => {
                if (total) onProgress(Math.min(1, loaded / total));
              }
            : undefined,
        },
        schema,
      );
    },
    download: (url, body, fileName, call = {}) =>
      fetchFile({ method: 'POST', url, body: json(body), headers: jsonHeaders }, fileName, call),
    downloadGet: (url, params, fileName, call = {}) => fetchFile({ method: 'GET', url, params }, fileName, call),
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
