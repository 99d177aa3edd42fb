/**
 * The wall screen (largescreen.html): a pairing code until a teacher pairs it, then the display with its
 * read-only display token, kept across power cuts; back to a pairing code when the screen is revoked.
 * The entry hands in the socket (which presents the stored token on every connect), the display client
 * and the chart loader.
 */
import { useCallback, useMemo, useState } from 'react';
import type { LargeScreenSnapshot } from '../../shared/contract/large-screen';
import type { RealtimeSocket } from '../../shared/adapters/realtime-socket';
import { DisplayView, type LastSnapshot } from './display-view';
import { PairingView, type PairingClient } from './pairing-view';
import type { LoadCharts } from './screen-chart';

export type DisplayClient = PairingClient & {
  loadToken: () => string | null;
  saveToken: (token: string) => void;
  clearToken: () => void;
  fetchSnapshot: (token: string) => Promise<LargeScreenSnapshot>;
  isRevoked: (error: unknown) => boolean;
  /** The last snapshot shown, kept for a start while the server is down. */
  lastSnapshot?: LastSnapshot;
};

export function LargeScreenApp({
  socket,
  client,
  loadCharts,
  kiosk,
}: {
  socket: RealtimeSocket;
  client: DisplayClient;
  loadCharts: LoadCharts;
  kiosk: boolean;
}) {
  const [token, setToken] = useState(() => client.loadToken());
  // The socket reads the stored token when it connects: reconnect it whenever the token changes.
  const rejoin = useCallback(() => {
    socket.disconnect();
    socket.connect();
  }, [socket]);
  const onPaired = useCallback(
    (next: string) => {
      client.saveToken(next);
      setToken(next);
      rejoin();
    },
    [client, rejoin],
  );
  const onRevoked = useCallback(() => {
    client.clearToken();
    setToken(null);
    rejoin();
  }, [client, rejoin]);
  const fetchSnapshot = useMemo(() => (token ? () => client.fetchSnapshot(token) : null), [client, token]);

  if (!token || !fetchSnapshot) return <PairingView client={client} socket={socket} onPaired={onPaired} />;
  return (
    <DisplayView
      socket={socket}
      fetchSnapshot={fetchSnapshot}
      isRevoked={client.isRevoked}
      onRevoked={onRevoked}
      lastSnapshot={client.lastSnapshot}
      loadCharts={loadCharts}
      kiosk={kiosk}
    />
  );
}
