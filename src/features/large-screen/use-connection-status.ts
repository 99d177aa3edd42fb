import { useEffect, useState } from 'react';
import type { RealtimeSocket } from '../../shared/adapters/realtime-socket';

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/** Follows the live connection of the given socket. */
export function useConnectionStatus(socket: RealtimeSocket): ConnectionStatus {
  const [status, setStatus] = useState<ConnectionStatus>(socket.connected ? 'connected' : 'connecting');
  useEffect(() => {
    const onConnect = () => setStatus('connected');
    const onDisconnect = () => setStatus('disconnected');
    socket.on('connect', onConnect);
    socket.on('disconnect', onDisconnect);
    socket.on('connect_error', onDisconnect);
    return () => {
      socket.off('connect', onConnect);
      socket.off('disconnect', onDisconnect);
      socket.off('connect_error', onDisconnect);
    };
  }, [socket]);
  return status;
}
