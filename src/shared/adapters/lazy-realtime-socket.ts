/**
 * The portal's and the scan station's socket, fetched when first needed: socket.io's client (about 12 KiB
 * gz) is not part of a first view. It connects once a feature subscribes to an event, with the handlers
 * subscribed meanwhile; `reconnect` (a login, a logout, a refreshed token) reconnects it if it is up.
 * Owns nothing else; the socket itself is built by realtime-socket.ts.
 */
import type { RealtimeSocket } from './realtime-socket';

// socket.io's listeners take any arguments.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => void;

/** What features need of the socket: to subscribe to the server's events and to stop. */
export type RealtimeEvents = {
  on(event: string, handler: Handler): unknown;
  off(event: string, handler: Handler): unknown;
};

export type LazyRealtimeSocket = RealtimeEvents & {
  reconnect(): void;
  /** The socket once it is up (tests, tools). */
  ready(): Promise<RealtimeSocket>;
};

export function createLazyRealtimeSocket(
  options: { getAccessToken?: () => string | null },
  load: () => Promise<{ createRealtimeSocket: (o: typeof options) => RealtimeSocket }> = () => import('./realtime-socket'),
): LazyRealtimeSocket {
  const handlers: [string, Handler][] = [];
  let socket: RealtimeSocket | null = null;
  let loading: Promise<RealtimeSocket> | null = null;
  const start = () => {
    loading ??= load().then(
      ({ createRealtimeSocket }) => {
        socket = createRealtimeSocket(options);
        for (const [event, handler] of handlers) socket.on(event, handler);
        return socket;
      },
      (error: unknown) => {
        // The next subscription tries again.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    on(event, handler) {
      handlers.push([event, handler]);
      if (socket) socket.on(event, handler);
      else start().catch(() => undefined);
      return this;
    },
    off(event, handler) {
      const index = handlers.findIndex(([e, h]) => e === event && h === handler);
      if (index >= 0) handlers.splice(index, 1);
      socket?.off(event, handler);
      return this;
    },
    reconnect() {
      socket?.disconnect().connect();
    },
    ready: start,
  };
}
