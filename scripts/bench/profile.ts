// Reads a V8 CPU profile (`node --cpu-prof`) of the servers process and names where the time
// went: the top functions by self time, and self time summed by package or source file.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../server/config.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

export interface Hotspot {
  name: string;
  where: string;
  selfMs: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  file: string;
  busyMs: number;
  idleMs: number;
  topFunctions: Hotspot[];
  byModule: { module: string; selfMs: number; share: number }[];
  /**
   * Time with a frame of the module anywhere on the stack (what it and everything it calls
   * synchronously cost). Shares overlap; work after an `await` is not charged to the awaiting
   * frame.
   */
  inclusiveByModule: { module: string; totalMs: number; share: number }[];
}

const IDLE = '(idle)';

export function summariseProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time since the previous sample; it is charged to this sample's frame.
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + Math.max(0, deltas[i] ?? 0));
  }
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const inclusive = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; us: number }>();
  const modules = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byNode.get(id)!.callFrame;
    if (functionName === IDLE) {
      idleUs += us;
      continue;
    }
    // The profiler's own stop call (serialising the profile) is sampled too: not ours.
    if (url.startsWith('node:inspector')) continue;
    busyUs += us;
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${functionName}\u0000${where}`;
    const entry = functions.get(key) ?? { name: functionName || '(anonymous)', where, us: 0 };
    entry.us += us;
    functions.set(key, entry);
    const module = moduleOf(url, functionName);
    modules.set(module, (modules.get(module) ?? 0) + us);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = byNode.get(at)!.callFrame;
      if (frame.url) onStack.add(moduleOf(frame.url, frame.functionName));
    }
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
  const share = (us: number) => (busyUs > 0 ? us / busyUs : 0);
  return {
    file,
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    topFunctions: [...functions.values()].sort((a, b) => b.us - a.us).slice(0, top)
      .map(({ name, where, us }) => ({ name, where, selfMs: us / 1000, share: share(us) })),
    byModule: [...modules.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([module, us]) => ({ module, selfMs: us / 1000, share: share(us) })),
    // Node's own modules and the benchmark's harness (which calls into the apps) would top it uninformatively.
    inclusiveByModule: [...inclusive.entries()].filter(([module]) => !module.startsWith('node:') && !module.startsWith('scripts/bench/')).sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([module, us]) => ({ module, totalMs: us / 1000, share: share(us) })),
  };
}

function shortUrl(url: string): string {
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const inModules = file.lastIndexOf('/node_modules/');
  if (inModules >= 0) return file.slice(inModules + '/node_modules/'.length);
  return file.startsWith(repoRoot) ? path.relative(repoRoot, file) : file;
}

/** A package (`mongodb`, `@scope/x`), one of our files (`server/pipeline/handler.ts`), a Node module, or V8's own bucket. */
function moduleOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const short = shortUrl(url);
  if (short.startsWith('node:')) return short.replace(/^node:internal\//, 'node:').split('/').slice(0, 2).join('/');
  if (url.includes('/node_modules/')) {
    const parts = short.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return short;
}
