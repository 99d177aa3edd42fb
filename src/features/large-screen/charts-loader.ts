/**
 * The wall screen's chart loader. ECharts loads after the first paint (a lazy chunk); when that fails (the
 * network was cut, or a new version replaced the chunk on the server), the browser never retries a failed
 * import by itself, so the results panel would stay without charts until someone reloads it, and nobody
 * touches a wall screen. The page reloads instead, once the server answers again: at once when the socket
 * reconnects, or after `delayMs` when it is connected (the chunk is gone, not the network). Never while the
 * server cannot be reached, which would leave the browser's error page on the wall.
 */
import type { LoadCharts } from './screen-chart';

type Connection = { connected: boolean; once: (event: 'connect', listener: () => void) => unknown };

export function reloadingChartsLoader(load: LoadCharts, socket: Connection, reload: () => void, delayMs: number): LoadCharts {
  let reloading = false;
  return () =>
    load().catch((error: unknown) => {
      if (!reloading) {
        reloading = true;
        if (socket.connected) setTimeout(reload, delayMs);
        else socket.once('connect', reload);
      }
      throw error;
    });
}
