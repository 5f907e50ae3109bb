// The repository's packages built as they are shipped (scripts/build-package.mjs) into a node_modules of
// a test's own, as npm would install them: @concord/cli and @concord/sdk with the @concord/contract they
// depend on, and the packages they need from the registry linked from the repository's node_modules.
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** Each package's folder, dependencies before what depends on them. */
const SOURCES = { contract: 'packages/contract', sdk: 'sdk', cli: 'packages/cli' } as const;

/**
 * Builds each package into `<nodeModules>/@concord/<name>` (its package.json and dist/) and links each of
 * `registry` (e.g. zod) from the repository's node_modules; returns the packages' folders.
 */
export async function installBuiltPackages(
  nodeModules: string,
  names: ReadonlyArray<keyof typeof SOURCES>,
  registry: readonly string[] = [],
): Promise<Record<string, string>> {
  const folders: Record<string, string> = {};
  await Promise.all(
    registry.map(async (name) => {
      await mkdir(path.dirname(path.join(nodeModules, name)), { recursive: true });
      await symlink(path.join(root, 'node_modules', name), path.join(nodeModules, name), 'dir');
    }),
  );
  // In dependency order (SOURCES lists them so), each type-checked against the ones built before it here:
  // the repository's own builds may be missing (a fresh clone builds only the contract at install) or stale.
  for (const name of (Object.keys(SOURCES) as Array<keyof typeof SOURCES>).filter((candidate) => names.includes(candidate))) {
    const folder = path.join(nodeModules, '@concord', name);
    folders[name] = folder;
    await mkdir(folder, { recursive: true });
    await copyFile(path.join(root, SOURCES[name], 'package.json'), path.join(folder, 'package.json'));
    // What `files` ships besides dist/ and the README: the CLI's launcher.
    if (name === 'cli') await cp(path.join(root, SOURCES[name], 'bin'), path.join(folder, 'bin'), { recursive: true });
    const build = [path.join(root, 'scripts/build-package.mjs'), SOURCES[name], '--out-dir', path.join(folder, 'dist'), '--types-from', nodeModules];
    await run(process.execPath, build, { cwd: root });
  }
  return folders;
}
