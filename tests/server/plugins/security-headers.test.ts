import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cspDirectives } from '../../../server/plugins/security-headers';
import { loginAs, postToken } from '../accounts-helper';
import { useTestApp } from '../helper';

describe('security headers', () => {
  const app = useTestApp();

  it('sends the CSP, nosniff, no framing and a referrer policy on API answers and stored files', async () => {
    await app().storage.write('files/probe.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    for (const url of ['/api/health', '/files/probe.png']) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('same-origin');
    }
  });

  it('forbids caches to store answers carrying tokens, and API answers in general', async () => {
    const session = await loginAs(app(), 'teacher');
    const refreshed = await postToken(app(), { grant_type: 'refresh_token', refresh_token: session.refresh_token });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.headers['cache-control']).toBe('no-store');
    expect(refreshed.headers.pragma).toBe('no-cache');
    const info = await app().inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(info.headers['cache-control']).toBe('no-store');
  });
});

describe('CSP for images and sockets on other hosts', () => {
  it('allows the configured image host and socket host', () => {
    const directives = cspDirectives({
      imageBaseUrl: 'https://cdn.example.edu.cn/img/',
      websocketBaseUrl: 'https://ws.example.edu.cn',
    });
    expect(directives['img-src']).toContain('https://cdn.example.edu.cn');
    expect(directives['connect-src']).toEqual(expect.arrayContaining(['https://ws.example.edu.cn', 'wss://ws.example.edu.cn']));
    expect(cspDirectives({ imageBaseUrl: '/files/', websocketBaseUrl: '' })['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});

describe('the page shells', () => {
  it('have no inline scripts or inline event handlers (the CSP would block them)', () => {
    const pages = ['teacher.html', 'scanstation.html', 'largescreen.html'].map((name) => path.resolve('entries', name));
    for (const page of pages) {
      const html = fs.readFileSync(page, 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes).toMatch(/\bsrc=/);
        expect(body!.trim()).toBe('');
      }
      expect(html).not.toMatch(/\son[a-z]+=/i);
    }
  });
});
