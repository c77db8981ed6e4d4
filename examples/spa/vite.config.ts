import { defineConfig } from 'vite';

/**
 * The SPA example: React 19 through Vite's built-in esbuild JSX transform (no plugin needed). In development,
 * `/dk` is proxied to the demo's partner server (`pnpm start` at the repository root), where the BFF is mounted.
 */
export default defineConfig({
  // Relative asset URLs, so the built app can be served under any path (the demo serves it at /spa/).
  base: './',
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    proxy: { '/dk': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: {
    proxy: { '/dk': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: { target: 'es2022' },
});
