import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadingChartsLoader } from '../../../src/features/large-screen/charts-loader';
import type { LoadCharts } from '../../../src/features/large-screen/screen-chart';

function fakeSocket(connected: boolean) {
  const listeners: (() => void)[] = [];
  return {
    connected,
    once: (_event: 'connect', listener: () => void) => listeners.push(listener),
    reconnect: () => listeners.splice(0).forEach((listener) => listener()),
  };
}

const failing: LoadCharts = () => Promise.reject(new Error('Failed to fetch dynamically imported module'));

describe('the wall screen’s chart loader', () => {
  afterEach(() => vi.useRealTimers());

  it('reloads the page when the server answers again, never while it cannot be reached', async () => {
    const socket = fakeSocket(false);
    const reload = vi.fn();
    const load = reloadingChartsLoader(failing, socket, reload, 30_000);
    await expect(load()).rejects.toThrow();
    await expect(load()).rejects.toThrow();
    expect(reload).not.toHaveBeenCalled();
    socket.reconnect();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads after a while when connected (the chunk was replaced by a new version)', async () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    const load = reloadingChartsLoader(failing, fakeSocket(true), reload, 30_000);
    await expect(load()).rejects.toThrow();
    vi.advanceTimersByTime(29_000);
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('hands the charts over and reloads nothing when they load', async () => {
    const module = { echarts: { init: vi.fn() } } as unknown as Awaited<ReturnType<LoadCharts>>;
    const reload = vi.fn();
    const socket = fakeSocket(false);
    const load = reloadingChartsLoader(() => Promise.resolve(module), socket, reload, 0);
    await expect(load()).resolves.toBe(module);
    socket.reconnect();
    expect(reload).not.toHaveBeenCalled();
  });
});
