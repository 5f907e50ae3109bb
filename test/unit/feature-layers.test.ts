// Feature folders import each other in one direction (docs/architecture.md). ESLint's import-x/no-cycle
// sees circles of files only; a circle of folders (a feature's service naming a repository of a folder
// that, through others, imports it back) is what puts a feature below another and above it at once.
// Type imports count: they are how one feature depends on another's shape.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve(import.meta.dirname, '../../src/modules');

/** For every feature folder, the folders it imports, each with the file and specifier that does. */
function featureImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const entry of readdirSync(MODULES, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) continue;
    const from = entry.split(path.sep)[0] as string;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    // TypeScript's own reading of a file's imports: import and export … from, side-effect imports, import().
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(path.join(MODULES, entry), 'utf8'), true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = path.relative(MODULES, path.resolve(path.dirname(path.join(MODULES, entry)), specifier));
      const to = target.split(path.sep)[0] as string;
      if (!target.startsWith('..') && to !== from && !edges.has(to)) edges.set(to, `${entry} → ${specifier}`);
    }
  }
  return graph;
}

/** One circle of folders, as the imports that close it, or null. */
function findCircle(graph: Map<string, Map<string, string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (folder: string): string[] | null => {
    state.set(folder, 'open');
    trail.push(folder);
    for (const [to, via] of graph.get(folder) ?? []) {
      if (state.get(to) === 'open') {
        const loop = [...trail.slice(trail.indexOf(to)), to];
        return loop.slice(1).map((next, i) => graph.get(loop[i] as string)?.get(next) ?? via);
      }
      if (!state.has(to)) {
        const found = visit(to);
        if (found) return found;
      }
    }
    trail.pop();
    state.set(folder, 'done');
    return null;
  };
  for (const folder of graph.keys()) {
    if (state.has(folder)) continue;
    const found = visit(folder);
    if (found) return found;
  }
  return null;
}

describe('feature folders', () => {
  it('import each other without a circle, type imports included', () => {
    const graph = featureImports();
    expect(graph.size).toBeGreaterThan(15);
    expect(graph.get('tasks')?.has('billing')).toBe(true);
    expect(findCircle(graph)).toBeNull();
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts → ../b/y.ts']])],
      ['b', new Map([['c', 'b/y.ts → ../c/z.ts']])],
      ['c', new Map([['a', 'c/z.ts → ../a/x.ts']])],
    ]);
    expect(findCircle(graph)).toEqual(['a/x.ts → ../b/y.ts', 'b/y.ts → ../c/z.ts', 'c/z.ts → ../a/x.ts']);
    graph.get('c')?.clear();
    expect(findCircle(graph)).toBeNull();
  });
});
