import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../../src/shared/adapters/http-client';
import { useAnswerImageOf } from '../../../src/shared/ui/use-answer-image';

// jsdom has no object URLs: count the ones made and the ones revoked.
let made: string[];
let revoked: string[];
const originalCreate = URL.createObjectURL;
const originalRevoke = URL.revokeObjectURL;

beforeEach(() => {
  made = [];
  revoked = [];
  URL.createObjectURL = vi.fn(() => {
    const url = `blob:answer-${made.length + 1}`;
    made.push(url);
    return url;
  });
  URL.revokeObjectURL = vi.fn((url: string) => {
    revoked.push(url);
  });
});

afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
});

function setup(initialAnswerId: number | null, get = vi.fn(async (url: string) => new Blob([url], { type: 'image/png' }))) {
  const http = { getBlob: get } as unknown as HttpClient;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ answerId }: { answerId: number | null }) => useAnswerImageOf(http, 'test', answerId), {
    wrapper,
    initialProps: { answerId: initialAnswerId },
  });
  return { get, ...hook };
}

describe('useAnswerImageOf: object URLs do not leak', () => {
  it('fetches the answer’s image once and shows it through an object URL', async () => {
    const { get, result } = setup(7);
    expect(result.current.isLoading).toBe(true);
    await waitFor(() => expect(result.current.data).toBe('blob:answer-1'));
    expect(result.current.isLoading).toBe(false);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith('/api/marking/answers/7/image', undefined, { silent: true });
    expect(revoked).toEqual([]);
  });

  it('revokes the URL when the component unmounts', async () => {
    const { result, unmount } = setup(7);
    await waitFor(() => expect(result.current.data).toBe('blob:answer-1'));
    unmount();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:answer-1');
    expect(revoked).toEqual(made);
  });

  it('revokes the old URL when the answer changes, and the last one on unmount', async () => {
    const { result, rerender, unmount } = setup(7);
    await waitFor(() => expect(result.current.data).toBe('blob:answer-1'));
    rerender({ answerId: 8 });
    await waitFor(() => expect(result.current.data).toBe('blob:answer-2'));
    expect(revoked).toEqual(['blob:answer-1']);
    rerender({ answerId: null });
    expect(result.current.data).toBeUndefined();
    expect(result.current.isLoading).toBe(false);
    expect(revoked).toEqual(['blob:answer-1', 'blob:answer-2']);
    unmount();
    expect(revoked).toEqual(['blob:answer-1', 'blob:answer-2']);
  });

  it('makes no URL and reports the error when the image cannot be read', async () => {
    const { result } = setup(
      9,
      vi.fn(async () => Promise.reject(new Error('404'))),
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.data).toBeUndefined();
    expect(made).toEqual([]);
  });
});
