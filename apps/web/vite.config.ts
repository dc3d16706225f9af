import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console reports the release it was built from; the server's /api/status answers its own, and the
// header shows a new-version notice when the two differ.
const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const serverOrigin = process.env.GATEHOUSE_SERVER ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    // zod-config.ts turns zod's eval probe off before any schema is built; it imports 'zod/v4' itself.
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/zod-config.ts', import.meta.url)) }],
  },
  define: {
    __APP_VERSION__: JSON.stringify(rootPackage.version),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The shell (React, router, Mantine, TanStack Query, i18next) is one ~530 kB chunk, ~170 kB gzipped; pages
    // load lazily. Grouping the libraries into chunks of their own was tried: it pulled code only lazy pages use
    // into the first load.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': serverOrigin,
      '/v1': serverOrigin,
      '/dashboard': serverOrigin,
    },
  },
});
