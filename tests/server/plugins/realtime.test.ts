/**
 * A signed-in socket lives no longer than its session: signing out, a password change that ends other
 * sessions, and token expiry disconnect it.
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, loginAs } from '../accounts-helper';
import { createTestApp } from '../helper';

describe('live-update sockets of ended sessions', () => {
  let handle: Awaited<ReturnType<typeof createTestApp>>;
  let url: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    handle = await createTestApp({ config: { accessTokenTtlSeconds: 60 } });
    await handle.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(handle.app.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await handle?.close();
  });

  /** A socket signed in with the token, once it has joined its school's room. */
  async function joined(token: string): Promise<Socket> {
    const socket = connect(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('server.joined', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  const disconnected = (socket: Socket) =>
    new Promise<string>((resolve) => {
      if (socket.disconnected) resolve('already');
      socket.once('disconnect', (reason) => resolve(reason));
    });

  it('disconnects the sockets of a session that signs out, and only those', async () => {
    const leaving = await loginAs(handle.app, 'teacher');
    const staying = await loginAs(handle.app, 'teacher');
    const leavingSocket = await joined(leaving.access_token);
    const stayingSocket = await joined(staying.access_token);
    const gone = disconnected(leavingSocket);
    const response = await handle.app.inject({
      method: 'DELETE',
      url: '/api/oauth/signout',
      headers: bearer(leaving.access_token),
    });
    expect(response.statusCode).toBe(200);
    await expect(gone).resolves.toBe('io server disconnect');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stayingSocket.connected).toBe(true);
  });

  it('disconnects the other sessions of a user who changes the password', async () => {
    const other = await loginAs(handle.app, 'creator');
    const current = await loginAs(handle.app, 'creator');
    const otherSocket = await joined(other.access_token);
    const gone = disconnected(otherSocket);
    const response = await handle.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: bearer(current.access_token),
      payload: { oldPassword: 'Demo@2026', password: 'Creator2026', password2: 'Creator2026' },
    });
    expect(response.statusCode).toBe(200);
    await expect(gone).resolves.toBe('io server disconnect');
  });
});

describe('live-update sockets of expired tokens', () => {
  let handle: Awaited<ReturnType<typeof createTestApp>>;
  let socket: Socket | undefined;

  beforeAll(async () => {
    // The app's clock runs 57 s behind, so its 60-second access tokens expire 3 s from now.
    handle = await createTestApp({ now: () => new Date(Date.now() - 57_000), config: { accessTokenTtlSeconds: 60 } });
    await handle.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    socket?.disconnect();
    await handle?.close();
  });

  it('disconnects a socket when its access token expires', async () => {
    const session = await loginAs(handle.app, 'director');
    const url = `http://127.0.0.1:${(handle.app.server.address() as AddressInfo).port}`;
    socket = connect(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: session.access_token },
      reconnection: false,
    });
    const current = socket;
    await new Promise<void>((resolve, reject) => {
      current.once('server.joined', () => resolve());
      current.once('connect_error', reject);
    });
    const reason = await new Promise<string>((resolve) => current.once('disconnect', (why) => resolve(why)));
    expect(reason).toBe('io server disconnect');
  }, 15_000);
});
