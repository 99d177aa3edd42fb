/**
 * The only code that constructs a socket.io client. Entries create one socket and hand it to features;
 * features subscribe through it and never create their own.
 */
import { io, type Socket } from 'socket.io-client';

export type RealtimeSocket = Socket;

export function createRealtimeSocket(): RealtimeSocket {
  return io({ path: '/socket.io', transports: ['websocket', 'polling'] });
}
