// Every TypeScript example of the packages' READMEs (sdk/README.md, packages/cli/README.md) compiles against
// the packages' sources (numbers as numbers, the methods and options as they are), so a README cannot drift
// from its API.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

describe.each([
  { readme: 'sdk/README.md', atLeast: 7 },
  { readme: 'packages/cli/README.md', atLeast: 1 },
])('$readme', ({ readme, atLeast }) => {
  it('every TypeScript example compiles against the packages', async () => {
    const text = await readFile(path.join(root, readme), 'utf8');
    const snippets = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(snippets.length).toBeGreaterThanOrEqual(atLeast);
    // Inside the repository, so that node_modules (@types/node) resolve as they do for the packages.
    const dir = await mkdtemp(path.join(root, 'node_modules/.cache-readme-'));
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
        // The packages from this repository's sources (their "source" export), as they are type-checked here.
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
