import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helper';

const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sh-client-'));
fs.mkdirSync(path.join(clientDir, 'assets'));
fs.writeFileSync(path.join(clientDir, 'teacher.html'), '<title>智慧作业</title>');
fs.writeFileSync(path.join(clientDir, 'scanstation.html'), '<title>智慧作业 · 扫描站</title>');
fs.writeFileSync(path.join(clientDir, 'largescreen.html'), '<title>智慧作业 · 大屏</title>');
fs.writeFileSync(path.join(clientDir, 'assets', 'app-abc123.js'), 'console.log(1)');
// What the build's precompress step writes next to a text asset.
const bigScript = 'console.log("智慧作业");\n'.repeat(200);
fs.writeFileSync(path.join(clientDir, 'assets', 'big-abc123.js'), bigScript);
fs.writeFileSync(path.join(clientDir, 'assets', 'big-abc123.js.br'), zlib.brotliCompressSync(bigScript));
fs.writeFileSync(path.join(clientDir, 'assets', 'big-abc123.js.gz'), zlib.gzipSync(bigScript));
afterAll(() => fs.rmSync(clientDir, { recursive: true, force: true }));

describe('serving the built client', () => {
  const app = useTestApp({ clientDir });

  it('serves the teacher portal at /', async () => {
    const response = await app().inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>智慧作业</title>');
  });

  it.each(['/analysis/class', '/team/details?orgId=1&isCreator=true', '/paperlist', '/no/such/page'])(
    'answers a reload of %s with the portal (history-mode fallback)',
    async (url) => {
      const response = await app().inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<title>智慧作业</title>');
    },
  );

  it.each([
    ['/scanstation.html', '智慧作业 · 扫描站'],
    ['/largescreen.html', '智慧作业 · 大屏'],
  ])('serves %s', async (url, title) => {
    const response = await app().inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(title);
  });

  it.each([
    ['br, gzip', 'br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', 'gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ])('sends the precompressed copy of an asset to a browser accepting %s', async (accept, encoding, decode) => {
    const response = await app().inject({ method: 'GET', url: '/assets/big-abc123.js', headers: { 'accept-encoding': accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toContain('immutable');
    expect(decode(response.rawPayload).toString()).toBe(bigScript);
  });

  it('sends the plain asset to a client that accepts no compression', async () => {
    const response = await app().inject({
      method: 'GET',
      url: '/assets/big-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(bigScript);
  });

  it('compresses API answers over 1 KB', async () => {
    const response = await app().inject({ method: 'GET', url: '/api/captcha', headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    const json = JSON.parse(zlib.brotliDecompressSync(response.rawPayload).toString()) as { code: number };
    expect(json.code).toBe(200);
    expect(zlib.brotliDecompressSync(response.rawPayload).length).toBeGreaterThan(1024);
  });

  it('caches hashed assets forever and the pages never', async () => {
    const asset = await app().inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const page = await app().inject({ method: 'GET', url: '/analysis/grade' });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/api/nothing-here', '/api', '/api/system/nope?x=1'])(
    'answers unknown %s with a JSON 404, not the page',
    async (url) => {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 404, msg: '很抱歉，资源未找到', data: null });
    },
  );

  it('answers a missing asset file with 404, not the page', async () => {
    const response = await app().inject({ method: 'GET', url: '/assets/missing.js' });
    expect(response.statusCode).toBe(404);
  });

  it('answers a malformed JSON body with a 400 envelope, not a 500', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().data).toBeNull();
  });
});

describe('without a built client', () => {
  const app = useTestApp();

  it('explains in Chinese how to build it instead of failing silently', async () => {
    const response = await app().inject({ method: 'GET', url: '/analysis/class' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });
});
