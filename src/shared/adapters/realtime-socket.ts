/**
 * The only code that constructs a socket.io client. Entries create one socket and hand it to features;
 * features subscribe through it and never create their own. A socket given `getAccessToken` hands the
 * current token to the server on every (re)connection, which puts it in its school's room.
 */
import { io, type Socket } from 'socket.io-client';

export type RealtimeSocket = Socket;

export function createRealtimeSocket(options: { getAccessToken?: () => string | null } = {}): RealtimeSocket {
  const { getAccessToken } = options;
  return io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    ...(getAccessToken ? { auth: (callback: (data: object) => void) => callback({ token: getAccessToken() ?? '' }) } : {}),
  });
}
