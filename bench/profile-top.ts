// Reads a V8 CPU profile (a server run with BENCH_SERVER_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof') and
// prints where the time went: the top functions by self time, and self time by package (our code, each
// node_modules package, Node's internals, GC, idle).
//   npx tsx bench/profile-top.ts /tmp/prof/CPU.….cpuprofile [--last 20] [--top 40] [--inclusive] [--callers fn]
// --last N keeps the samples of the profile's last N seconds (the measured loop, not start-up and seeding).
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};

/** Where a frame belongs: a node_modules package, our source folder, Node's internals, or V8's pseudo-frames. */
function groupOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return 'node:internal';
  const own = /\/(src|bench)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]?.split('/').slice(0, -1).join('/') || '.'}` : url;
}

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [--last seconds] [--top n]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const last = Number(argument('--last') ?? 0);
  const top = Number(argument('--top') ?? 40);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const from = last > 0 ? profile.endTime - last * 1e6 : -Infinity;
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    if (t < from) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    total += delta;
  });
  // Total (inclusive) time: each sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const keyOf = (frame: ProfileNode['callFrame']) => {
    const where = frame.url ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    return `${frame.functionName || '(anonymous)'} ${where}`;
  };
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const key = keyOf((byId.get(node) as ProfileNode).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const byFunction = new Map<string, number>();
  const byGroup = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = (byId.get(id) as ProfileNode).callFrame;
    const key = keyOf(frame);
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const group = groupOf(frame);
    byGroup.set(group, (byGroup.get(group) ?? 0) + us);
  }
  const print = (title: string, table: Map<string, number>, limit: number) => {
    process.stdout.write(`\n${title} (of ${(total / 1e6).toFixed(1)} s sampled)\n`);
    for (const [key, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
      process.stdout.write(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${key}\n`);
    }
  };
  print('self time by package', byGroup, 25);
  print('top functions by self time', byFunction, top);
  if (process.argv.includes('--inclusive')) print('top functions by total time (self and callees)', inclusive, top);
  // --callers NAME: the stacks (up to 12 frames, innermost first) that spent self time in functions named NAME.
  const callersOf = argument('--callers');
  if (callersOf) {
    const stacks = new Map<string, number>();
    for (const [id, us] of selfUs) {
      if ((byId.get(id) as ProfileNode).callFrame.functionName !== callersOf) continue;
      const frames: string[] = [];
      for (let node = parent.get(id); node !== undefined && frames.length < 12; node = parent.get(node))
        frames.push(keyOf((byId.get(node) as ProfileNode).callFrame));
      const key = frames.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + us);
    }
    print(`callers of ${callersOf}`, stacks, 10);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
