// Builds a package of this repository (sdk/, packages/contract/) twice from the same source: ES modules
// into dist/esm and CommonJS into dist/cjs, each with its declarations and a package.json naming its module
// type, so `import` and `require` both load it (package.json's `exports` picks one by condition).
//   node scripts/build-package.mjs <package dir> [--out-dir DIR] [--types-from NODE_MODULES]
// DIR defaults to <package dir>/dist. The package's tsconfig.esm.json and tsconfig.cjs.json say what each
// build compiles. The @concord/* packages it depends on are type-checked against their builds: by default
// the repository's own (npm run sdk:build makes them, in order); with --types-from, those built into that
// node_modules folder (a test's install, where the repository's may be missing or stale).
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const OPTIONS = ['--out-dir', '--types-from'];
const [packageArg] = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !OPTIONS.includes(all[i - 1] ?? ''));
if (!packageArg) {
  process.stderr.write('usage: node scripts/build-package.mjs <package dir> [--out-dir DIR]\n');
  process.exit(2);
}
const packageDir = path.resolve(packageArg);
const option = (name) => {
  const at = process.argv.indexOf(name);
  return at > 0 && process.argv[at + 1] ? path.resolve(process.argv[at + 1]) : undefined;
};
const outDir = option('--out-dir') ?? path.join(packageDir, 'dist');
const typesFrom = option('--types-from');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const manifest = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));

/**
 * The tsconfig to compile with: the package's own, or (with --types-from) one beside the output that
 * extends it and maps each @concord/* dependency to its declarations in that node_modules.
 */
async function configFor(project, flavour) {
  if (!typesFrom) return path.join(packageDir, project);
  const dependencies = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@concord/'));
  const paths = Object.fromEntries(dependencies.map((name) => [name, [path.join(typesFrom, name, 'dist', flavour, 'index.d.ts')]]));
  const config = path.join(outDir, `tsconfig.${flavour}.json`);
  // Type packages (@types/node) are looked up from a config's own folder: point that lookup back home.
  const typeRoots = [path.join(import.meta.dirname, '..', 'node_modules', '@types')];
  await writeFile(config, JSON.stringify({ extends: path.join(packageDir, project), compilerOptions: { paths, typeRoots } }));
  return config;
}

async function compile(project, target, flavour) {
  const config = await configFor(project, flavour);
  await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-p', config, '--outDir', target], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tsc -p ${project} exited with ${code}`))));
  });
}

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const builds = [
  { project: 'tsconfig.esm.json', flavour: 'esm', dir: path.join(outDir, 'esm'), type: 'module' },
  { project: 'tsconfig.cjs.json', flavour: 'cjs', dir: path.join(outDir, 'cjs'), type: 'commonjs' },
];
await Promise.all(builds.map(({ project, dir, flavour }) => compile(project, dir, flavour)));
if (typesFrom) await Promise.all(builds.map(({ flavour }) => rm(path.join(outDir, `tsconfig.${flavour}.json`), { force: true })));
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
