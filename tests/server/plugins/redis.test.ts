/**
 * Several instances on one Redis act as one: a broadcast from one instance reaches a socket connected to
 * another. Runs where TEST_REDIS_URL points at a Redis (npm test sets it when one answers locally).
 */
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helper';

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('running several instances on Redis', () => {
  let first: Awaited<ReturnType<typeof createTestApp>>;
  let second: Awaited<ReturnType<typeof createTestApp>>;
  let socket: Socket;

  beforeAll(async () => {
    first = await createTestApp({ seedDemo: false, config: { redisUrl } });
    second = await createTestApp({ seedDemo: false, config: { redisUrl } });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = second.app.server.address() as AddressInfo;
    socket = connect(`http://127.0.0.1:${port}`, { path: '/socket.io', transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('server.hello', () => resolve());
      socket.once('connect_error', reject);
    });
  });

  afterAll(async () => {
    socket?.disconnect();
    await first?.close();
    await second?.close();
  });

  it('delivers a broadcast from one instance to a socket on another', async () => {
    const received = new Promise<unknown>((resolve) => socket.once('test.broadcast', resolve));
    // The adapter's subscription may need a moment after start; repeat until the message crosses.
    const timer = setInterval(() => first.app.realtime.emit('test.broadcast', { from: 'first' }), 100);
    try {
      await expect(received).resolves.toEqual({ from: 'first' });
    } finally {
      clearInterval(timer);
    }
  });

  it('gives both instances a Redis connection', () => {
    expect(first.app.redis?.status).toBe('ready');
    expect(second.app.redis?.status).toBe('ready');
  });
});

describe('without REDIS_URL', () => {
  it('keeps realtime state in memory', async () => {
    const single = await createTestApp({ seedDemo: false, config: { redisUrl: undefined } });
    try {
      expect(single.app.redis).toBeNull();
    } finally {
      await single.close();
    }
  });
});
