// Every TypeScript example of sdk/README.md compiles against the SDK's source (numbers as numbers, the
// methods and options as they are), so the README cannot drift from the API.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

describe('sdk/README.md', () => {
  it('every TypeScript example compiles against the SDK', async () => {
    const readme = await readFile(path.join(root, 'sdk/README.md'), 'utf8');
    const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    // Inside the repository, so that node_modules (@types/node) resolve as they do for the SDK.
    const dir = await mkdtemp(path.join(root, 'node_modules/.cache-sdk-readme-'));
    try {
      await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
      const files = await Promise.all(
        snippets.map(async (snippet, i) => {
          const name = `snippet-${i + 1}.ts`;
          await writeFile(path.join(dir, name), snippet);
          return name;
        }),
      );
      const compilerOptions = {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        strict: true,
        noEmit: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: ['node'],
        paths: { '@concord/sdk': [path.join(root, 'sdk/src/index.ts')] },
        // The SDK's own dependency from this repository's sources, as the SDK is type-checked here.
        customConditions: ['source'],
      };
      await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
      const result = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
        () => '',
        (error: { stdout: string }) => error.stdout,
      );
      expect(result).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
