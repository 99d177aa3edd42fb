import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiRequestError,
  ERROR_MESSAGE_DURATION_MS,
  NETWORK_ERROR_MESSAGE,
  REQUEST_TIMEOUT_MS,
  TIMEOUT_MESSAGE,
  TRANSFER_TIMEOUT_MS,
  browserTransport,
  createHttpClient,
  requestSignOut,
  requestToken,
  saveBlobWithAnchor,
  type TransportRequest,
} from '../../../src/shared/adapters/http-client';
import { OAUTH_BASIC_HEADER, REFRESH_TOKEN_INVALID_MESSAGE, type TokenResponse } from '../../../src/shared/contract/auth';
import { MESSAGES } from '../../../src/shared/contract/envelope';

type Reply = { status: number; data: unknown } | { error: 'network' } | { hang: true };
type Handler = (request: TransportRequest) => Reply | Promise<Reply>;

/**
 * A client whose transport answers through `handler` instead of the network, and records every request.
 * `{ hang: true }` never answers: the request ends only when its signal aborts (its timeout, the caller).
 */
function setup(handler: Handler = () => ok(null), token: string | null = 'access-1', now?: () => number) {
  const requests: TransportRequest[] = [];
  const notify = vi.fn<(message: string, durationMs: number) => void>();
  const onUnauthorized = vi.fn<(reason: 'status401' | 'refreshInvalid') => void>();
  const saveBlob = vi.fn<(blob: Blob, fileName: string) => void>();
  const transport = async (request: TransportRequest) => {
    requests.push(request);
    const reply = await handler(request);
    if ('error' in reply) throw new TypeError('Failed to fetch');
    if ('hang' in reply) {
      return new Promise<never>((_, reject) => {
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    }
    return { status: reply.status, body: reply.data };
  };
  const http = createHttpClient({ getAccessToken: () => token, onUnauthorized, notify, saveBlob, now, transport });
  const last = () => requests[requests.length - 1]!;
  const header = (name: string) => Object.entries(last().headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  const url = () => last().url;
  return { http, requests, notify, onUnauthorized, saveBlob, last, header, url };
}

const ok = (data: unknown): Reply => ({ status: 200, data: { code: 200, msg: '操作成功', data } });
const fail = (status: number, msg: string, code = status): Reply => ({ status, data: { code, msg, data: null } });

async function rejection(promise: Promise<unknown>): Promise<ApiRequestError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiRequestError);
  return error as ApiRequestError;
}

const tokenAnswer: TokenResponse = {
  access_token: 'access-2',
  refresh_token: 'refresh-2',
  token_type: 'bearer',
  expires_in: 7200,
  user: {
    id: 1,
    username: 'zhang',
    nickname: '张老师',
    mobile: null,
    avatar: null,
    wechatBound: false,
    userGradeInfo: {
      orgDefaultId: null,
      orgName: null,
      gradeDirector: false,
      isCreator: false,
      classDefaultId: null,
      classDefaultName: null,
    },
    orgs: [],
  },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('http client: success', () => {
  it('resolves with the envelope data of an HTTP 200 answer carrying code 200', async () => {
    const { http } = setup(() => ok([{ id: 1, name: '高一' }]));
    await expect(http.get('/api/system/class')).resolves.toEqual([{ id: 1, name: '高一' }]);
  });

  it('validates the data with the schema passed last, directly or in the options', async () => {
    const schema = z.array(z.object({ id: z.number(), name: z.string() }));
    const { http } = setup(() => ok([{ id: 1, name: '高一', extra: true }]));
    await expect(http.get('/api/system/class', { orgId: 1 }, schema)).resolves.toEqual([{ id: 1, name: '高一' }]);
    await expect(http.get('/api/system/class', { orgId: 1 }, { schema })).resolves.toEqual([{ id: 1, name: '高一' }]);
  });

  it('rejects data that breaks the schema as an internal error, with a toast', async () => {
    const { http, notify } = setup(() => ok({ id: 'one' }));
    const error = await rejection(http.get('/x', undefined, z.object({ id: z.number() })));
    expect(error.message).toBe(MESSAGES.internal);
    expect(error.kind).toBe('invalid');
    expect(notify).toHaveBeenCalledWith(MESSAGES.internal, ERROR_MESSAGE_DURATION_MS);
  });
});

describe('http client: requests', () => {
  it('attaches the bearer access token', async () => {
    const { http, header } = setup(() => ok(null), 'access-1');
    await http.get('/x');
    expect(header('Authorization')).toBe('Bearer access-1');
  });

  it('sends no Authorization header without a token', async () => {
    const { http, header } = setup(() => ok(null), null);
    await http.get('/x');
    expect(header('Authorization')).toBeUndefined();
  });

  it('keeps an Authorization header the call already carries', async () => {
    const { http, header } = setup(() => ok(null), 'access-1');
    await http.postForm('/x', {}, { headers: { Authorization: 'Basic abc' } });
    expect(header('Authorization')).toBe('Basic abc');
  });

  it('skips null and undefined GET query parameters but keeps empty strings, zero and false', async () => {
    const { http, url } = setup(() => ok(null));
    await http.get('/api/system/class', { orgId: 3, type: 1, pid: '', a: null, b: undefined, c: 0, d: false });
    expect(url()).toBe('/api/system/class?orgId=3&type=1&pid=&c=0&d=false');
  });

  it('form-encodes POST bodies without null or undefined fields', async () => {
    const { http, last, header } = setup(() => ok(null));
    await http.postForm('/x', { orgId: 1, classId: 5, note: null, other: undefined, name: '高一', ids: [1, 2] });
    expect(header('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(new URLSearchParams(String(last().body)).toString()).toBe(
      new URLSearchParams([
        ['orgId', '1'],
        ['classId', '5'],
        ['name', '高一'],
        ['ids', '1'],
        ['ids', '2'],
      ]).toString(),
    );
  });

  it('form-encodes PUT and DELETE bodies the same way, and sends DELETE query parameters without nulls', async () => {
    const { http, last, url } = setup(() => ok(null));
    await http.putForm('/api/system/class/updateClassDefault', { orgId: 1, classId: 5, skip: null });
    expect(last().method).toBe('PUT');
    expect(String(last().body)).toBe('orgId=1&classId=5');
    await http.deleteForm('/x', { id: 9, skip: undefined });
    expect(last().method).toBe('DELETE');
    expect(String(last().body)).toBe('id=9');
    await http.deleteQuery('/x', { id: 9, skip: null });
    expect(url()).toBe('/x?id=9');
  });

  it('sends JSON bodies as JSON on POST, PUT and PATCH', async () => {
    const { http, last, header } = setup(() => ok(null));
    await http.postJson('/x', { a: 1, b: null });
    expect(header('Content-Type')).toMatch(/^application\/json/);
    expect(JSON.parse(String(last().body))).toEqual({ a: 1, b: null });
    await http.putJson('/x', { c: '学' });
    expect(last().method).toBe('PUT');
    expect(JSON.parse(String(last().body))).toEqual({ c: '学' });
    await http.patchJson('/x', { status: 'assigned' });
    expect(last().method).toBe('PATCH');
    expect(header('Content-Type')).toMatch(/^application\/json/);
    expect(JSON.parse(String(last().body))).toEqual({ status: 'assigned' });
  });

  it('PUTs a file as the raw body with its type', async () => {
    const { http, last, header } = setup(() => ok(null));
    const file = new Blob(['x'], { type: 'image/png' });
    await http.putFile('/x', file);
    expect(last().body).toBe(file);
    expect(header('Content-Type')).toBe('image/png');
  });

  it('PUTs multipart built from a record, leaving out null fields', async () => {
    const { http, last } = setup(() => ok(null));
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    await http.putMultipart('/x', { file, orgId: 1, skip: null });
    const form = last().body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('a.png');
    expect(form.get('orgId')).toBe('1');
    expect(form.has('skip')).toBe(false);
  });

  it('gives ordinary calls 100000 ms and uploads and downloads 420000 ms, then fails them as timed out', async () => {
    vi.useFakeTimers();
    try {
      const { http, requests, notify } = setup(() => ({ hang: true }));
      const calls: [string, () => Promise<unknown>, number][] = [
        ['get', () => http.get('/x'), REQUEST_TIMEOUT_MS],
        ['putFile', () => http.putFile('/x', new Blob(['x'])), REQUEST_TIMEOUT_MS],
        ['upload', () => http.upload('/x', new FormData()), TRANSFER_TIMEOUT_MS],
        ['download', () => http.download('/x', {}, 'a.docx'), TRANSFER_TIMEOUT_MS],
        ['downloadGet', () => http.downloadGet('/x', {}, 'a.docx'), TRANSFER_TIMEOUT_MS],
      ];
      for (const [name, call, timeout] of calls) {
        let settled: ApiRequestError | 'pending' = 'pending';
        void call().catch((error: ApiRequestError) => (settled = error));
        await vi.advanceTimersByTimeAsync(timeout - 1);
        expect(settled, name).toBe('pending');
        expect(requests.at(-1)!.signal.aborted, name).toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        expect(requests.at(-1)!.signal.aborted, name).toBe(true);
        expect(settled, name).toBeInstanceOf(ApiRequestError);
        expect((settled as unknown as ApiRequestError).kind, name).toBe('timeout');
      }
      expect(REQUEST_TIMEOUT_MS).toBe(100_000);
      expect(TRANSFER_TIMEOUT_MS).toBe(420_000);
      expect(notify).toHaveBeenCalledWith(TIMEOUT_MESSAGE, ERROR_MESSAGE_DURATION_MS);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports upload progress as a ratio', async () => {
    const onProgress = vi.fn();
    const { http } = setup((request) => {
      request.onUploadProgress?.(50, 200);
      request.onUploadProgress?.(200, 200);
      return ok({ avatar: 'a.png' });
    });
    await expect(http.upload('/api/user/avatar', new FormData(), { onProgress })).resolves.toEqual({ avatar: 'a.png' });
    expect(onProgress.mock.calls).toEqual([[0.25], [1]]);
  });
});

describe('http client: error catalogue (spec §8)', () => {
  it('shows 很抱歉，资源未找到 for 5 seconds on a 404', async () => {
    const { http, notify } = setup(() => fail(404, 'no route'));
    const error = await rejection(http.get('/x'));
    expect(error).toMatchObject({ message: MESSAGES.notFound, status: 404, code: 404 });
    expect(notify).toHaveBeenCalledExactlyOnceWith('很抱歉，资源未找到', 5000);
  });

  it('shows 很抱歉，您暂无该操作权限 on a 403', async () => {
    const { http, notify } = setup(() => fail(403, 'forbidden'));
    const error = await rejection(http.get('/x'));
    expect(error).toMatchObject({ message: '很抱歉，您暂无该操作权限', status: 403 });
    expect(notify).toHaveBeenCalledExactlyOnceWith(MESSAGES.forbidden, ERROR_MESSAGE_DURATION_MS);
  });

  it('shows one message for several failures of one reason while it is on screen', async () => {
    let clock = 1_000;
    const { http, notify } = setup(
      () => fail(403, 'forbidden'),
      'access-1',
      () => clock,
    );
    await Promise.all([rejection(http.get('/subjects')), rejection(http.get('/homework'))]);
    expect(notify).toHaveBeenCalledExactlyOnceWith(MESSAGES.forbidden, ERROR_MESSAGE_DURATION_MS);
    clock += ERROR_MESSAGE_DURATION_MS - 1;
    await rejection(http.get('/again'));
    expect(notify).toHaveBeenCalledOnce();
    clock += 1;
    await rejection(http.get('/later'));
    expect(notify).toHaveBeenCalledTimes(2);
  });

  it('still shows a different message at once', async () => {
    const { http, notify } = setup(
      (request) => (request.url === '/a' ? fail(403, 'x') : fail(404, 'y')),
      'access-1',
      () => 0,
    );
    await rejection(http.get('/a'));
    await rejection(http.get('/b'));
    expect(notify.mock.calls.map(([message]) => message)).toEqual([MESSAGES.forbidden, MESSAGES.notFound]);
  });

  it('reports a 401 to the session without a toast', async () => {
    const { http, notify, onUnauthorized } = setup(() => fail(401, '登录已失效，请重新登录'));
    const error = await rejection(http.get('/x'));
    expect(error).toMatchObject({ status: 401, message: '登录已失效，请重新登录' });
    expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('status401');
    expect(notify).not.toHaveBeenCalled();
  });

  it('treats HTTP 200 carrying code 401 as a 401', async () => {
    const { http, onUnauthorized } = setup(() => fail(200, '登录已失效，请重新登录', 401));
    const error = await rejection(http.get('/x'));
    expect(error).toMatchObject({ status: 200, code: 401 });
    expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('status401');
  });

  it('reports the refresh-token-invalid message to the session as such, whatever the status', async () => {
    for (const status of [400, 401]) {
      const { http, notify, onUnauthorized } = setup(() => fail(status, REFRESH_TOKEN_INVALID_MESSAGE));
      const error = await rejection(http.get('/x'));
      expect(error.message).toBe(REFRESH_TOKEN_INVALID_MESSAGE);
      expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('refreshInvalid');
      expect(notify).not.toHaveBeenCalled();
    }
  });

  it('reports a 401 even for a silent call', async () => {
    const { http, onUnauthorized } = setup(() => fail(401, 'x'));
    await rejection(http.get('/x', undefined, { silent: true }));
    expect(onUnauthorized).toHaveBeenCalledWith('status401');
  });

  it('shows 系统内部异常，请联系网站管理员 for a null or empty body', async () => {
    for (const reply of [
      { status: 200, data: null },
      { status: 500, data: null },
      { status: 502, data: '' },
    ]) {
      const { http, notify } = setup(() => reply);
      const error = await rejection(http.get('/x'));
      expect(error.message).toBe('系统内部异常，请联系网站管理员');
      expect(error.code).toBeNull();
      expect(notify).toHaveBeenCalledExactlyOnceWith(MESSAGES.internal, ERROR_MESSAGE_DURATION_MS);
    }
  });

  it("shows the server's message for 5 seconds on any other error, by HTTP status or envelope code", async () => {
    for (const reply of [fail(400, '验证码错误'), fail(500, '验证码错误'), fail(200, '验证码错误', 400)]) {
      const { http, notify } = setup(() => reply);
      const error = await rejection(http.postForm('/x', {}));
      expect(error.message).toBe('验证码错误');
      expect(notify).toHaveBeenCalledExactlyOnceWith('验证码错误', 5000);
    }
  });

  it('counts only HTTP 200 as success, even for a 2xx answer with code 200', async () => {
    const { http, notify } = setup(() => ({ status: 201, data: { code: 200, msg: '操作成功', data: 1 } }));
    const error = await rejection(http.get('/x'));
    expect(error.status).toBe(201);
    expect(notify).toHaveBeenCalledOnce();
  });

  it('explains a timeout in Chinese', async () => {
    vi.useFakeTimers();
    const { http, notify } = setup(() => ({ hang: true }));
    const pending = rejection(http.get('/x'));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    vi.useRealTimers();
    const error = await pending;
    expect(error).toMatchObject({ message: TIMEOUT_MESSAGE, status: 0, code: null, kind: 'timeout' });
    expect(notify).toHaveBeenCalledExactlyOnceWith('请求超时，请稍后重试', ERROR_MESSAGE_DURATION_MS);
  });

  it('explains a network failure in Chinese', async () => {
    const { http, notify } = setup(() => ({ error: 'network' }));
    const error = await rejection(http.get('/x'));
    expect(error).toMatchObject({ message: NETWORK_ERROR_MESSAGE, status: 0, kind: 'network' });
    expect(notify).toHaveBeenCalledExactlyOnceWith('网络连接失败，请检查网络后重试', ERROR_MESSAGE_DURATION_MS);
  });

  it('does not toast a cancelled request, cancelled before or while it is sent', async () => {
    const { http, notify, requests } = setup(() => ({ hang: true }));
    const before = new AbortController();
    before.abort();
    expect((await rejection(http.get('/x', undefined, { signal: before.signal }))).kind).toBe('canceled');
    const during = new AbortController();
    const pending = rejection(http.get('/y', undefined, { signal: during.signal }));
    await vi.waitFor(() => expect(requests.at(-1)?.url).toBe('/y'));
    during.abort();
    expect((await pending).kind).toBe('canceled');
    expect(requests.at(-1)!.signal.aborted).toBe(true);
    expect(notify).not.toHaveBeenCalled();
  });

  it('does not toast a silent call, but still rejects with the message', async () => {
    const { http, notify } = setup(() => fail(500, '验证码错误'));
    const error = await rejection(http.postForm('/x', {}, { silent: true }));
    expect(error.message).toBe('验证码错误');
    expect(notify).not.toHaveBeenCalled();
  });

  it('gets a file as a blob without saving it, and maps its failures like any call', async () => {
    const image = new Blob(['jpeg'], { type: 'image/jpeg' });
    const { http, last, url, saveBlob } = setup(() => ({ status: 200, data: image }));
    await expect(http.getBlob('/api/marking/answers/7/image', { page: 1, skip: null })).resolves.toBe(image);
    expect(last()).toMatchObject({ method: 'GET', responseType: 'blob' });
    expect(url()).toBe('/api/marking/answers/7/image?page=1');
    expect(saveBlob).not.toHaveBeenCalled();

    const missing = setup(() => fail(404, 'x'));
    expect((await rejection(missing.http.getBlob('/x'))).message).toBe(MESSAGES.notFound);
    expect(missing.notify).toHaveBeenCalledWith(MESSAGES.notFound, ERROR_MESSAGE_DURATION_MS);

    const quiet = setup(() => fail(500, 'boom'));
    const error = await rejection(quiet.http.getBlob('/x', undefined, { silent: true, failureMessage: '下载失败' }));
    expect(error.message).toBe('下载失败');
    expect(quiet.notify).not.toHaveBeenCalled();
  });
});

describe('http client: downloads', () => {
  it('POSTs JSON, expects a blob and saves it under the given file name', async () => {
    const file = new Blob(['paper'], { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    const { http, last, saveBlob } = setup(() => ({ status: 200, data: file }));
    await http.download('/api/paper/export', { paperId: 3 }, '试卷.docx');
    expect(last().method).toBe('POST');
    expect(last().responseType).toBe('blob');
    expect(JSON.parse(String(last().body))).toEqual({ paperId: 3 });
    expect(saveBlob).toHaveBeenCalledExactlyOnceWith(file, '试卷.docx');
  });

  it('downloads with GET and query parameters without nulls', async () => {
    const { http, last, url, saveBlob } = setup(() => ({ status: 200, data: new Blob(['x']) }));
    await http.downloadGet('/api/x', { id: 1, skip: null }, 'a.xlsx');
    expect(last().method).toBe('GET');
    expect(url()).toBe('/api/x?id=1');
    expect(saveBlob).toHaveBeenCalledOnce();
  });

  it('shows 题量过大，下载失败 when the download fails, and saves nothing', async () => {
    for (const reply of [
      { status: 500, data: '' },
      { status: 500, data: { code: 500, msg: 'boom', data: null } },
      { error: 'network' } as const,
    ]) {
      const { http, notify, saveBlob } = setup(() => reply);
      const error = await rejection(http.download('/x', {}, 'a.docx'));
      expect(error.message).toBe('题量过大，下载失败');
      expect(notify).toHaveBeenCalledExactlyOnceWith(MESSAGES.downloadFailed, ERROR_MESSAGE_DURATION_MS);
      expect(saveBlob).not.toHaveBeenCalled();
    }
  });

  it('treats a JSON error envelope answered instead of the file as a failed download', async () => {
    const body = new Blob([JSON.stringify({ code: 500, msg: 'boom', data: null })], { type: 'application/json' });
    const { http, notify, saveBlob } = setup(() => ({ status: 200, data: body }));
    const error = await rejection(http.download('/x', {}, 'a.docx'));
    expect(error.message).toBe(MESSAGES.downloadFailed);
    expect(notify).toHaveBeenCalledExactlyOnceWith(MESSAGES.downloadFailed, ERROR_MESSAGE_DURATION_MS);
    expect(saveBlob).not.toHaveBeenCalled();
  });

  it('reports a 401 on a download to the session instead of the download message', async () => {
    const { http, notify, onUnauthorized } = setup(() => ({ status: 401, data: '' }));
    await rejection(http.download('/x', {}, 'a.docx'));
    expect(onUnauthorized).toHaveBeenCalledWith('status401');
    expect(notify).not.toHaveBeenCalled();
  });

  it('saves a blob by clicking a temporary anchor with the file name, then revokes the URL', () => {
    vi.useFakeTimers();
    const createObjectURL = vi.fn(() => 'blob:fake');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    saveBlobWithAnchor(new Blob(['x']), '成绩.xlsx');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('成绩.xlsx');
    expect(clicked[0]!.getAttribute('href')).toBe('blob:fake');
    expect(document.querySelector('a[download]')).toBeNull();
    vi.runAllTimers();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:fake');
    vi.useRealTimers();
  });
});

describe('auth endpoints', () => {
  it('requests a token form-encoded at /api/oauth/oauth/token with the Basic client header, not the bearer', async () => {
    const { http, last, header } = setup(() => ok(tokenAnswer), 'access-1');
    const answer = await requestToken(http, { grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(answer).toEqual(tokenAnswer);
    expect(last().url).toBe('/api/oauth/oauth/token');
    expect(last().method).toBe('POST');
    expect(header('Authorization')).toBe(OAUTH_BASIC_HEADER);
    expect(String(last().body)).toBe('grant_type=refresh_token&refresh_token=refresh-1');
  });

  it('rejects a token answer that breaks the contract', async () => {
    const { http } = setup(() => ok({ access_token: 'a' }));
    const error = await rejection(requestToken(http, { grant_type: 'refresh_token', refresh_token: 'r' }));
    expect(error.kind).toBe('invalid');
  });

  it('fails a login silently (the form shows the message) but still reports an invalid refresh token', async () => {
    const { http, notify } = setup(() => fail(400, '用户名或密码错误'));
    const error = await rejection(
      requestToken(http, { grant_type: 'password', username: 'a', password: 'b', captchaKey: 'k', captcha: 'c' }),
    );
    expect(error.message).toBe('用户名或密码错误');
    expect(notify).not.toHaveBeenCalled();

    const refresh = setup(() => fail(400, REFRESH_TOKEN_INVALID_MESSAGE));
    await rejection(requestToken(refresh.http, { grant_type: 'refresh_token', refresh_token: 'r' }));
    expect(refresh.onUnauthorized).toHaveBeenCalledWith('refreshInvalid');
  });

  it('signs out with DELETE /api/oauth/signout carrying the token being ended', async () => {
    const { http, last, header } = setup(() => ok(null), 'some-newer-token');
    await requestSignOut(http, 'access-1');
    expect(last().method).toBe('DELETE');
    expect(last().url).toBe('/api/oauth/signout');
    expect(header('Authorization')).toBe('Bearer access-1');
  });
});

describe('browser transport', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const client = () =>
    createHttpClient({ getAccessToken: () => 'access-1', onUnauthorized: vi.fn(), notify: vi.fn(), transport: browserTransport });

  it('sends with fetch: method, URL with the query, headers, body, and reads the envelope', async () => {
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(JSON.stringify({ code: 200, msg: '操作成功', data: { id: 3 } }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(client().postJson('/api/x?a=1', { b: 2 })).resolves.toEqual({ id: 3 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/x?a=1');
    expect(init).toMatchObject({ method: 'POST', body: '{"b":2}' });
    expect(init.headers).toMatchObject({ Authorization: 'Bearer access-1', 'Content-Type': 'application/json;charset=utf-8' });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('reads a failed answer’s JSON (or nothing) for the message, and a fetch that throws as a network failure', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 400, msg: '验证码错误', data: null }), { status: 400 })),
    );
    expect((await rejection(client().get('/x'))).message).toBe('验证码错误');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 502 })),
    );
    expect((await rejection(client().get('/x'))).message).toBe(MESSAGES.internal);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await rejection(client().get('/x'))).toMatchObject({ kind: 'network', message: NETWORK_ERROR_MESSAGE });
  });

  it('uploads with XMLHttpRequest when progress is wanted, reporting it as a ratio', async () => {
    const sent: { method: string; url: string; headers: Record<string, string>; body: unknown }[] = [];
    class FakeXhr {
      upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
      responseType = '';
      status = 0;
      responseText = '';
      onload?: () => void;
      private request = { method: '', url: '', headers: {} as Record<string, string>, body: null as unknown };
      open(method: string, url: string) {
        Object.assign(this.request, { method, url });
      }
      setRequestHeader(name: string, value: string) {
        this.request.headers[name] = value;
      }
      send(body: unknown) {
        sent.push({ ...this.request, body });
        setTimeout(() => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 4 });
          this.upload.onprogress?.({ lengthComputable: true, loaded: 4, total: 4 });
          this.status = 200;
          this.responseText = JSON.stringify({ code: 200, msg: '操作成功', data: { avatar: 'a.png' } });
          this.onload?.();
        });
      }
      abort() {}
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const onProgress = vi.fn();
    const form = new FormData();
    await expect(client().upload('/api/user/avatar', form, { onProgress })).resolves.toEqual({ avatar: 'a.png' });
    expect(onProgress.mock.calls).toEqual([[0.25], [1]]);
    expect(sent).toEqual([
      { method: 'POST', url: '/api/user/avatar', headers: { Authorization: 'Bearer access-1' }, body: form },
    ]);
  });
});
