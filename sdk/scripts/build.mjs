// Builds the SDK twice from the same source: ES modules into dist/esm and CommonJS into dist/cjs, each with
// its declarations and a package.json naming its module type, so `import` and `require` both load it
// (package.json's `exports` picks one by condition).
//   node sdk/scripts/build.mjs [--out-dir DIR]     (DIR defaults to sdk/dist)
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const sdkDir = path.resolve(import.meta.dirname, '..');
const outFlag = process.argv.indexOf('--out-dir');
const outDir = outFlag > 0 && process.argv[outFlag + 1] ? path.resolve(process.argv[outFlag + 1]) : path.join(sdkDir, 'dist');
const tsc = createRequire(path.join(sdkDir, 'package.json')).resolve('typescript/bin/tsc');

function compile(project, target) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', path.join(sdkDir, project), '--outDir', target], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p ${project} exited with ${code}`))));
  });
}

await rm(outDir, { recursive: true, force: true });
const builds = [
  { project: 'tsconfig.esm.json', dir: path.join(outDir, 'esm'), type: 'module' },
  { project: 'tsconfig.cjs.json', dir: path.join(outDir, 'cjs'), type: 'commonjs' },
];
await Promise.all(builds.map(({ project, dir }) => compile(project, dir)));
for (const { dir, type } of builds) {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ type }, null, 2)}\n`);
  // tsc rewrites `./http.ts` to `./http.js` in the JavaScript but not in the declarations: do it there too,
  // so a consumer's TypeScript needs no allowImportingTsExtensions.
  for (const file of await readdir(dir, { recursive: true })) {
    if (!file.endsWith('.d.ts')) continue;
    const target = path.join(dir, file);
    const text = await readFile(target, 'utf8');
    const rewritten = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2');
    if (rewritten !== text) await writeFile(target, rewritten);
  }
}
// The `concord` bin (package.json "bin"; an ES module program, so in dist/esm only) is executable.
await chmod(path.join(outDir, 'esm/cli/bin.js'), 0o755);
process.stdout.write(`built ${path.relative(process.cwd(), outDir) || '.'}/esm (import) and ${path.relative(process.cwd(), outDir) || '.'}/cjs (require)\n`);
