import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard is served by the Redirectory server at /app (src/features/dashboard), built into dist/web.
export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // Hashed names for everything: the server caches assets/ for a year.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/qr': 'http://127.0.0.1:3000', '/pages.css': 'http://127.0.0.1:3000' } },
});
