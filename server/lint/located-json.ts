// Spectral's JSON parser with a location lookup that costs the depth of a path, not the width of
// every object along it. Spectral asks where each finding is (its range) by walking the parsed
// tree from the root, and @stoplight/json scans an object's members one by one at each step:
// on Stripe's description (2.4 MB, 14,282 findings) that scan was a fifth of the lint's CPU.
// Each object's members are indexed once, on first use, with the first of duplicate keys winning
// as in the scan, so every range, and every finding, is what Spectral's own parser gives.
import { Parsers } from './spectral.ts';

interface AstNode {
  type: string;
  value?: unknown;
  range?: unknown;
  children?: AstNode[];
}

const members = new WeakMap<AstNode, Map<string, AstNode>>();

function membersOf(node: AstNode): Map<string, AstNode> {
  let index = members.get(node);
  if (!index) {
    index = new Map();
    for (const member of node.children ?? []) {
      const [key, value] = member.children ?? [];
      if (member.children?.length === 2 && key && value && !index.has(String(key.value))) index.set(String(key.value), value);
    }
    members.set(node, index);
  }
  return index;
}

/** The node at `path`, or with `closest` the deepest one on the way; the lookup @stoplight/json's findNodeAtPath makes. */
function nodeAt(root: AstNode, path: readonly (string | number)[], closest: boolean): AstNode | undefined {
  let node = root;
  for (const given of path) {
    const segment = Number.isInteger(Number(given)) ? Number(given) : given;
    if (typeof segment === 'string' || node.type !== 'array') {
      const next = node.type === 'object' && Array.isArray(node.children) ? membersOf(node).get(String(segment)) : undefined;
      if (!next) return closest ? node : undefined;
      node = next;
      continue;
    }
    if (!Array.isArray(node.children) || segment < 0 || segment >= node.children.length) return closest ? node : undefined;
    node = node.children[segment]!;
  }
  return node;
}

/** Spectral's JSON parser, its location lookup indexed. */
export const LocatedJson = {
  ...Parsers['Json'],
  getLocationForJsonPath(result: { ast: AstNode }, path: readonly (string | number)[], closest = false): { range: unknown } | undefined {
    const node = nodeAt(result.ast, path, closest);
    return node?.range === undefined ? undefined : { range: node.range };
  },
};
