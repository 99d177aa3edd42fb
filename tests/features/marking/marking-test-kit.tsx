/**
 * Test helpers for the marking feature: a fake HTTP client answering by method and URL (validated by the
 * schema the caller passes, as the real one does), a fake realtime subscription the test can emit on,
 * the marking routes in an in-memory router, and payload fixtures.
 */
import { act, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { MarkingServicesProvider, type SubscribeRealtime } from '../../../src/features/marking/marking-services';
import { CorrectPage } from '../../../src/features/marking/pages/correct-page';
import { WritePage } from '../../../src/features/marking/pages/write-page';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { MarkingOverview, MarkingQuestion, MarkingTask, ReviewItem } from '../../../src/shared/contract/marking';

// jsdom has no ResizeObserver (Semi's Select and Table observe their size) and no object URLs.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
URL.createObjectURL = vi.fn(() => `blob:test/${Math.random().toString(36).slice(2)}`);
URL.revokeObjectURL = vi.fn();

export type Method = 'GET' | 'POST' | 'PUT';
type Handler = (method: Method, url: string, body: unknown) => unknown;

type Schema = { parse?: (v: unknown) => unknown } | undefined;
const validate = (schema: unknown, data: unknown) => {
  const zod = schema as Schema;
  return zod?.parse ? zod.parse(data) : data;
};

/** A client whose calls answer through `handler`; a thrown error rejects the call, as the real client does. */
export function fakeHttp(handler: Handler) {
  const get = vi.fn(async (url: string, params?: unknown, schema?: unknown) =>
    validate(schema, await handler('GET', url, params)),
  );
  const postJson = vi.fn(async (url: string, body: unknown, schema?: unknown) =>
    validate(schema, await handler('POST', url, body)),
  );
  const putJson = vi.fn(async (url: string, body: unknown, schema?: unknown) =>
    validate(schema, await handler('PUT', url, body)),
  );
  const downloadGet = vi.fn(async () => undefined);
  const getBlob = vi.fn(async (url: string) => new Blob([url], { type: 'image/jpeg' }));
  const http = { get, postJson, putJson, downloadGet, getBlob } as unknown as HttpClient;
  return { http, get, postJson, putJson, downloadGet, getBlob };
}

/** The realtime subscription: tests emit events as the server would. */
export function fakeRealtime() {
  const handlers = new Map<string, Set<(payload: unknown) => void>>();
  const subscribe: SubscribeRealtime = (event, handler) => {
    if (!handlers.has(event)) handlers.set(event, new Set());
    handlers.get(event)!.add(handler);
    return () => handlers.get(event)?.delete(handler);
  };
  const emit = (event: string, payload: unknown) =>
    act(() => {
      for (const handler of handlers.get(event) ?? []) handler(payload);
    });
  return { subscribe, emit, listeners: (event: string) => handlers.get(event)?.size ?? 0 };
}

function LocationProbe() {
  const location = useLocation();
  return <output aria-label="当前地址">{location.pathname + location.search}</output>;
}

export function renderMarking(route: string, http: HttpClient, realtime = fakeRealtime(), userId: number | null = 7) {
  const ui: ReactElement = (
    <MemoryRouter initialEntries={[route]}>
      <MarkingServicesProvider services={{ http, subscribe: realtime.subscribe, userId }}>
        <Routes>
          <Route path="/correct" element={<CorrectPage />} />
          <Route path="/write" element={<WritePage />} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
      </MarkingServicesProvider>
    </MemoryRouter>
  );
  return { ...render(ui), realtime };
}

export function question(questionNo: number, overrides: Partial<MarkingQuestion> = {}): MarkingQuestion {
  return {
    questionNo,
    type: 'subjective',
    score: 10,
    manual: true,
    total: 40,
    done: 10,
    arbitration: 0,
    problems: 0,
    doubleMarking: false,
    tolerance: 0,
    assigned: [7],
    markers: [{ userId: 7, name: '王老师', marked: 10 }],
    ...overrides,
  };
}

export function overview(overrides: Partial<MarkingOverview> = {}): MarkingOverview {
  return {
    homeworkId: 3,
    title: '第一单元测验',
    status: 'marking',
    isOwner: true,
    partialCredit: 0.5,
    questions: [
      question(1, { type: 'single', score: 3, manual: false, total: 40, done: 40, assigned: [], markers: [] }),
      question(13, { type: 'blank', score: 4, done: 40, assigned: [8], markers: [{ userId: 8, name: '李老师', marked: 40 }] }),
      question(14),
    ],
    recognition: { stored: 80, recognised: 76, pending: 4, review: 2 },
    teachers: [
      { userId: 7, name: '王老师' },
      { userId: 8, name: '李老师' },
      { userId: 9, name: '赵老师' },
    ],
    ...overrides,
  };
}

export function task(taskId: number, overrides: Partial<MarkingTask> = {}): MarkingTask {
  return {
    taskId,
    homeworkId: 3,
    questionNo: 14,
    answerId: 500 + taskId,
    maxScore: 10,
    round: 1,
    score: null,
    annotations: [],
    problem: false,
    progress: { mine: 0, left: 5 },
    ...overrides,
  };
}

export function reviewItem(id: number, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id,
    homeworkId: 3,
    kind: 'unknownStudent',
    status: 'open',
    imageId: `img-${id}`,
    page: 1,
    questionNo: null,
    student: null,
    reading: null,
    resolution: null,
    createdAt: '2026-11-02T08:00:00.000Z',
    ...overrides,
  };
}
