import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Client bundle: hashed, code-split assets and a manifest the server reads to link entry,
// page chunks and stylesheets. `vite build --ssr client/entry-server.tsx` reuses this config
// for the server entry (dependencies stay external and load from node_modules).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  publicDir: 'public',
  // Development: pre-bundle every dependency the client reaches from its entry (pages
  // included) at start, so no late discovery reloads an open page.
  optimizeDeps: { entries: ['client/entry-client.tsx'] },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'node24',
        assetsInlineLimit: 0,
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        assetsDir: 'assets',
        // Images and fonts stay files: cacheable, and no data: URLs in scripts.
        assetsInlineLimit: 0,
        target: 'es2022',
        rolldownOptions: { input: 'client/entry-client.tsx' },
      },
}))
