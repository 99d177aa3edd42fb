/**
 * The wall display started while the server cannot be reached: it shows the last snapshot it kept, with
 * the time that snapshot was fetched and the banner, never as if it were current; and it keeps each
 * snapshot it fetches.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DisplayView } from '../../../src/features/large-screen/display-view';
import { clockText } from '../../../src/features/large-screen/panel-data';
import type { RealtimeSocket } from '../../../src/shared/adapters/realtime-socket';
import type { LargeScreenSnapshot } from '../../../src/shared/contract/large-screen';

const snapshot: LargeScreenSnapshot = {
  generatedAt: '2026-11-23T08:00:00.000Z',
  schoolName: '示范中学',
  title: '实验楼大屏',
  scopeLabel: '全校',
  panels: ['pipeline'],
  showNames: false,
  pipeline: [],
  results: null,
};

/** A socket that never connects (the server is down). */
const socket = { connected: false, on: () => socket, off: () => socket, connect: () => socket } as unknown as RealtimeSocket;
const loadCharts = () => new Promise<never>(() => undefined);

describe('the wall display with the server down', () => {
  it('shows the last snapshot it kept, saying when it was fetched, under the banner', async () => {
    const at = new Date(2026, 10, 23, 7, 5, 9);
    render(
      <DisplayView
        socket={socket}
        fetchSnapshot={() => Promise.reject(new Error('Failed to fetch'))}
        lastSnapshot={{ load: () => ({ snapshot, at }), save: vi.fn() }}
        loadCharts={loadCharts}
        kiosk
      />,
    );
    expect(await screen.findByRole('heading', { name: '示范中学 · 实验楼大屏' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(`以下数据更新于 ${clockText(at)}`);
    expect(screen.getByTestId('updated-at')).toHaveTextContent(`更新于 ${clockText(at)}`);
  });

  it('shows no data and says so when it kept none', async () => {
    render(
      <DisplayView
        socket={socket}
        fetchSnapshot={() => Promise.reject(new Error('Failed to fetch'))}
        lastSnapshot={{ load: () => null, save: vi.fn() }}
        loadCharts={loadCharts}
        kiosk
      />,
    );
    await waitFor(() => expect(screen.getByTestId('updated-at')).toHaveTextContent('尚未更新'));
    expect(screen.getByRole('heading', { name: '智慧作业 · 大屏' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });

  it('keeps every snapshot it fetches', async () => {
    const save = vi.fn();
    render(
      <DisplayView
        socket={socket}
        fetchSnapshot={() => Promise.resolve(snapshot)}
        lastSnapshot={{ load: () => null, save }}
        loadCharts={loadCharts}
        kiosk
      />,
    );
    await waitFor(() => expect(save).toHaveBeenCalledWith(snapshot, expect.any(Date)));
  });
});
