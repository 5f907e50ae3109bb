// packages/cli/README.md against the CLI itself: the exit code table is the one the CLI uses, every command
// and option the command table shows exists (so the documentation cannot drift), the version is the
// package's, and the library example type-checks.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../packages/cli/src/errors.ts';
import { buildProgram } from '../../packages/cli/src/main.ts';
import { VERSION } from '../../packages/cli/src/version.ts';

const root = path.resolve(import.meta.dirname, '../..');
const readme = () => readFile(path.join(root, 'packages/cli/README.md'), 'utf8');

/** The rows of the Markdown table that follows `header`. */
function tableAfter(text: string, header: string): string[][] {
  const start = text.indexOf(header);
  expect(start, `a table headed ${header}`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of text.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const optionNames = (command: Command) => command.options.flatMap((option) => [option.long, option.short].filter((name): name is string => Boolean(name)));

describe('packages/cli/README.md', () => {
  it('lists the exit codes the CLI uses', async () => {
    const codes = tableAfter(await readme(), '| Exit code | Meaning |').map(([code]) => Number(code));
    expect(codes.sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
  });

  it('shows only commands and options that exist, and every command', async () => {
    const program = buildProgram();
    const globalOptions = optionNames(program);
    const documented = new Set<string>();
    for (const [usage] of tableAfter(await readme(), '| Command | What it does |')) {
      const words = (usage as string).replaceAll('`', '').replaceAll('\\|', '|').split(/\s+/);
      expect(words[0]).toBe('concord');
      // The command's name: the words before the first argument or option.
      const names = words.slice(1).filter((_, i, all) => all.slice(0, i + 1).every((word) => /^[a-z][a-z-]*$/.test(word)));
      let command: Command = program;
      for (const name of names) {
        const sub = command.commands.find((candidate) => candidate.name() === name);
        expect(sub, `concord ${names.join(' ')}`).toBeDefined();
        command = sub as Command;
      }
      documented.add(names.join(' '));
      const allowed = new Set([...optionNames(command), ...globalOptions]);
      for (const option of usage?.replaceAll('\\|', '|').match(/(?<=^|[\s[|])--?[a-z][a-z-]*/g) ?? [])
        expect(allowed, `${option} of concord ${names.join(' ')}`).toContain(option);
    }
    const leaves = (command: Command, prefix: string[]): string[] =>
      command.commands.length === 0 ? [prefix.join(' ')] : command.commands.flatMap((sub) => leaves(sub, [...prefix, sub.name()]));
    expect([...documented].sort()).toEqual(leaves(program, []).sort());
  });
});

describe('the CLI’s version', () => {
  it('is its package’s', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, 'packages/cli/package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(manifest.version);
  });
});
