// The dashboard's build. `npm run web:build` writes web/dist, which the service serves at `/`;
// `npm run dev` runs this dev server (hot reload) in front of the API on PORT.
import { readFile } from 'node:fs/promises';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const api = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

/** zod's two modules that turn a schema into JSON Schema. */
const ZOD_JSON_SCHEMA = /\/node_modules\/zod\/v4\/core\/(json-schema-processors|to-json-schema)\.js$/;
const STAND_IN = '\0concord-no-json-schema:';

/**
 * Every classic zod schema the contract builds carries zod's JSON Schema generation (its `toJSONSchema`,
 * `~standard.jsonSchema` and per-type processors: about 5 kB gzipped), which only the service uses (its
 * OpenAPI document); the dashboard validates with the schemas and never asks one for JSON Schema. In the
 * production build those two modules are replaced by stand-ins that export the same names and throw if
 * ever called (a `create…Method` returns a function that throws, since `~standard` builds one when it is
 * read). A name zod adds to them is picked up from its source; one it imports from elsewhere fails the
 * build, never the page. The dev server (its dependencies pre-bundled) keeps zod whole.
 */
function withoutZodJsonSchema(): Plugin {
  return {
    name: 'concord:without-zod-json-schema',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer?.includes('/node_modules/zod/') || !/json-schema/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && ZOD_JSON_SCHEMA.test(resolved.id) ? `${STAND_IN}${resolved.id}` : null;
    },
    async load(id) {
      if (!id.startsWith(STAND_IN)) return null;
      const source = await readFile(id.slice(STAND_IN.length), 'utf8');
      const names = new Set([...source.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm)].map((match) => match[1] ?? ''));
      for (const list of source.matchAll(/^export \{([^}]*)\}/gm)) {
        for (const item of (list[1] ?? '').split(','))
          names.add(
            item
              .trim()
              .split(/\s+as\s+/)
              .pop() ?? '',
          );
      }
      names.delete('');
      const unavailable = `() => { throw new Error('JSON Schema generation is left out of the dashboard (web/vite.config.ts)'); }`;
      return [
        `const unavailable = ${unavailable};`,
        ...[...names].map((name) => `export const ${name} = ${name.startsWith('create') ? '() => unavailable' : 'unavailable'};`),
      ].join('\n');
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [withoutZodJsonSchema(), react()],
  // @concord/contract from its TypeScript source (its "source" export): the dashboard bundles it like its own code.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  // One chunk, inside the 250 kB (gzipped) budget that npm run bench:dashboard measures.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 700 },
  server: {
    port: Number(process.env.WEB_PORT ?? '5173'),
    strictPort: true,
    proxy: { '/api': api, '/sandbox': api, '/checkout': api, '/docs': api, '/healthz': api },
  },
});
