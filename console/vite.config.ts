import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { conditions } from '../web/build/build-options';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The console is a separate build from the public site: its own pages, scripts and styles under
// /admin/, so nothing of it reaches a visitor's first load (docs/console.md#how-it-is-built).
export default defineConfig({
  base: '/admin/',
  plugins: [react(), tailwindcss()],
  resolve: { conditions },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    rolldownOptions: { input: { console: here('index.html'), preview: here('preview.html') } },
  },
  server: { proxy: { '/v1': 'http://localhost:8080' } },
});
