// The dashboard's build. `npm run web:build` writes web/dist, which the service serves at `/`;
// `npm run dev` runs this dev server (hot reload) in front of the API on PORT.
import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // @concord/contract from its TypeScript source (its "source" export): the dashboard bundles it like its own code.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // One chunk: 156 kB gzipped, well inside the 250 kB budget that npm run bench:dashboard measures.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  server: {
    port: Number(process.env.WEB_PORT ?? '5173'),
    strictPort: true,
    proxy: { '/api': api, '/sandbox': api, '/checkout': api, '/docs': api, '/healthz': api },
  },
});
