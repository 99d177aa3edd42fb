import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = path.resolve(import.meta.dirname, 'entries');
const SERVER = process.env.VITE_API_TARGET ?? 'http://127.0.0.1:8080';

/** The dev server's history-mode fallback: a portal route such as /analysis/class gets teacher.html. */
function portalFallback(): Plugin {
  return {
    name: 'portal-history-fallback',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        const pathname = url.split('?')[0] ?? '/';
        const isPage =
          req.method === 'GET' &&
          !pathname.startsWith('/api') &&
          !pathname.startsWith('/socket.io') &&
          !pathname.startsWith('/@') &&
          !pathname.startsWith('/node_modules') &&
          !path.extname(pathname);
        if (isPage) req.url = '/teacher.html' + url.slice(pathname.length);
        next();
      });
    },
  };
}

export default defineConfig({
  root,
  publicDir: path.resolve(import.meta.dirname, 'public'),
  plugins: [react(), portalFallback()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2500,
    rolldownOptions: {
      // Semi UI's dependencies carry 'use client' directives, meaningless in a client bundle.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        // lottie-web (inside Semi UI) uses eval; nothing of ours does.
        if (log.code === 'EVAL' && log.id?.includes('node_modules')) return;
        handler(level, log);
      },
      output: {
        // Vendor chunks that change rarely and are shared by every screen, so a deploy of our code leaves
        // them cached. Semi UI is left to automatic splitting: each page loads the components it uses.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/](react-router|react-router-dom)[\\/]/, priority: 20 },
          ],
        },
      },
      input: {
        teacher: path.join(root, 'teacher.html'),
        scanstation: path.join(root, 'scanstation.html'),
        largescreen: path.join(root, 'largescreen.html'),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: SERVER, changeOrigin: true },
      '/socket.io': { target: SERVER, ws: true, changeOrigin: true },
    },
  },
});
