import { defineConfig } from 'vite';

/**
 * The console is served by the service itself under /console (src/http/console.ts), from
 * dist/console: hashed file names under /console/assets, cached for good there.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  build: { outDir: '../dist/console', emptyOutDir: true, assetsDir: 'assets' },
  // The service's port during development (`npx vite console`): the same origin for the page's requests.
  server: { proxy: { '/graphql': { target: 'http://127.0.0.1:3000', ws: true } } },
});
