// Builds a package of this repository (sdk/, packages/contract/) twice from the same source: ES modules
// into dist/esm and CommonJS into dist/cjs, each with its declarations and a package.json naming its module
// type, so `import` and `require` both load it (package.json's `exports` picks one by condition).
//   node scripts/build-package.mjs <package dir> [--out-dir DIR]     (DIR defaults to <package dir>/dist)
// The package's tsconfig.esm.json and tsconfig.cjs.json say what each build compiles.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const [packageArg] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--out-dir');
if (!packageArg) {
  process.stderr.write('usage: node scripts/build-package.mjs <package dir> [--out-dir DIR]\n');
  process.exit(2);
}
const packageDir = path.resolve(packageArg);
const outFlag = process.argv.indexOf('--out-dir');
const outDir = outFlag > 0 && process.argv[outFlag + 1] ? path.resolve(process.argv[outFlag + 1]) : path.join(packageDir, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));

function compile(project, target) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', path.join(packageDir, project), '--outDir', target], { stdio: 'inherit' });
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
// Each `bin` of package.json that is a build output is made executable.
for (const bin of Object.values(manifest.bin ?? {})) {
  const relative = path.relative('dist', bin);
  if (!relative.startsWith('..')) await chmod(path.join(outDir, relative), 0o755);
}
const shown = path.relative(process.cwd(), outDir) || '.';
process.stdout.write(`${manifest.name}: built ${shown}/esm (import) and ${shown}/cjs (require)\n`);
