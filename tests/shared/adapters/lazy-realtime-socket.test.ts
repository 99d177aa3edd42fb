import { describe, expect, it, vi } from 'vitest';
import { createLazyRealtimeSocket } from '../../../src/shared/adapters/lazy-realtime-socket';
import type { RealtimeSocket } from '../../../src/shared/adapters/realtime-socket';

function fakeSocket() {
  const socket = {
    on: vi.fn(() => socket),
    off: vi.fn(() => socket),
    disconnect: vi.fn(() => socket),
    connect: vi.fn(() => socket),
  };
  return socket;
}

describe('the lazily loaded socket', () => {
  it('loads socket.io only when a page first listens, with the handlers given meanwhile', async () => {
    const socket = fakeSocket();
    const load = vi.fn(async () => ({ createRealtimeSocket: () => socket as unknown as RealtimeSocket }));
    const lazy = createLazyRealtimeSocket({}, load);
    lazy.reconnect();
    expect(load).not.toHaveBeenCalled();

    const first = vi.fn();
    const second = vi.fn();
    lazy.on('marking.progress', first);
    lazy.on('scan.pageStored', second);
    lazy.off('scan.pageStored', second);
    await lazy.ready();
    expect(load).toHaveBeenCalledTimes(1);
    expect(socket.on.mock.calls).toEqual([['marking.progress', first]]);

    // Once up, it forwards, and a new token reconnects it.
    lazy.on('scan.pageStored', second);
    expect(socket.on).toHaveBeenLastCalledWith('scan.pageStored', second);
    lazy.off('marking.progress', first);
    expect(socket.off).toHaveBeenCalledWith('marking.progress', first);
    lazy.reconnect();
    expect(socket.disconnect).toHaveBeenCalledTimes(1);
    expect(socket.connect).toHaveBeenCalledTimes(1);
  });

  it('tries to load again after a failure', async () => {
    const socket = fakeSocket();
    const load = vi
      .fn<() => Promise<{ createRealtimeSocket: () => RealtimeSocket }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ createRealtimeSocket: () => socket as unknown as RealtimeSocket });
    const lazy = createLazyRealtimeSocket({}, load);
    await expect(lazy.ready()).rejects.toThrow('offline');
    const handler = vi.fn();
    lazy.on('x', handler);
    await lazy.ready();
    expect(socket.on).toHaveBeenCalledWith('x', handler);
  });
});
