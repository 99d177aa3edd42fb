/** Test helpers for the papers feature: a fake HTTP client answering by URL, and a render with providers. */
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { vi } from 'vitest';
import { PapersServicesProvider, type PapersServices, type PapersUser } from '../../../src/features/papers/papers-services';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import type { Homework, Question } from '../../../src/shared/contract/papers';

// jsdom has no ResizeObserver; Semi's Select and Table observe their size.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

type Handler = (url: string, params: Record<string, unknown> | undefined) => unknown;

/** A client whose `get` answers through `handler` (validated by the schema the caller passes, as the real one does). */
export function fakeHttp(handler: Handler) {
  const get = vi.fn(async (url: string, params?: Record<string, unknown>, schema?: unknown) => {
    const data = await handler(url, params);
    const zod = schema as { parse?: (v: unknown) => unknown } | undefined;
    return zod?.parse ? zod.parse(data) : data;
  });
  const download = vi.fn(async () => undefined);
  const downloadGet = vi.fn(async () => undefined);
  const patchJson = vi.fn(async (url: string, body: unknown, schema?: unknown) => {
    void schema;
    return { ...homework(Number(/\/api\/homework\/(\d+)/.exec(url)?.[1] ?? 1)), ...(body as object) };
  });
  const upload = vi.fn(async (url: string, body: FormData, options?: unknown, schema?: unknown): Promise<unknown> => {
    void [body, options, schema];
    throw new Error(`unexpected upload to ${url}`);
  });
  const deleteQuery = vi.fn(async (url: string) => {
    void url;
    return null;
  });
  const postJson = vi.fn(async (url: string, body: unknown, schema?: unknown): Promise<unknown> => {
    void schema;
    if (url === '/api/homework') return homework(900, body as Partial<Homework>);
    throw new Error(`unexpected post to ${url}`);
  });
  const http = { get, download, downloadGet, patchJson, upload, deleteQuery, postJson } as unknown as HttpClient;
  return { http, get, download, downloadGet, patchJson, upload, deleteQuery, postJson };
}

export const TEST_USER: PapersUser = { orgId: 1, schoolYearId: 1, schoolYearName: '2026级 (初一)' };

/** Where the page navigated to (pathname and query), for the tests of its links. */
function LocationProbe() {
  const location = useLocation();
  return <output aria-label="当前地址">{location.pathname + location.search}</output>;
}

export function renderWithPapers(
  ui: ReactElement,
  http: HttpClient,
  route = '/',
  extra: Partial<Pick<PapersServices, 'renderAnswerSheetPreview' | 'user'>> = {},
) {
  return render(
    <MemoryRouter initialEntries={[route]}>
      <PapersServicesProvider services={{ http, user: TEST_USER, ...extra }}>{ui}</PapersServicesProvider>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export function question(id: number, type: Question['type'], overrides: Partial<Question> = {}): Question {
  const choice = type === 'single' || type === 'multiple';
  return {
    id,
    subjectId: 1,
    type,
    stem: `第${id}题 计算 $\\frac{1}{2}+\\frac{1}{3}$`,
    options: choice ? ['1', '2', '3', '4'] : [],
    answer: type === 'multiple' ? ['A', 'B'] : type === 'judge' ? ['对'] : ['A'],
    analysis: '略',
    difficulty: 2,
    chapterIds: [1],
    knowledgePointIds: [1],
    knowledgePointNames: ['有理数'],
    source: '原创',
    usageCount: 0,
    shared: true,
    ...overrides,
  };
}

export function homework(id: number, overrides: Partial<Homework> = {}): Homework {
  return {
    id,
    paperId: 100 + id,
    title: `作业${id}`,
    subject: { id: 1, name: '数学' },
    schoolYearId: 1,
    classes: [{ id: 4, name: '初一(1)班' }],
    startDate: '2026-11-01',
    dueDate: '2026-11-08',
    status: 'assigned',
    paperSize: 'A4',
    totalScore: 100,
    questionCount: 20,
    createdAt: '2026-11-01T08:00:00.000Z',
    ...overrides,
  };
}
