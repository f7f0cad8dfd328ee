/**
 * The Session Tree as the view shows it: a linear run of entries is one flat list and nesting happens only at
 * branch points, so a 100,000-entry linear session is one level deep rather than 100,000. Pure (no vscode
 * import) and iterative, so a deep or adversarial file (cycles, missing parents) cannot blow the stack.
 */
import type { TreeNode, TreeResult } from "./protocol";

export interface ViewNode {
  entry: TreeNode;
  /** The node above it in the view (not necessarily the entry's parent entry). */
  parent: ViewNode | undefined;
  children: ViewNode[];
  /** First entry of one branch under a branch point (or of one root when there are several). */
  head: boolean;
  branchPoint: boolean;
  onActivePath: boolean;
  leaf: boolean;
}

export interface ViewModel {
  roots: ViewNode[];
  byLine: Map<number, ViewNode>;
  leafLine: number | undefined;
}

/** Flat entries in file order, whether the server sent `nodes` (flat) or `roots` (nested). */
export function flatten(result: TreeResult): TreeNode[] {
  if (result.nodes) return result.nodes;
  const flat: TreeNode[] = [];
  const stack: Array<{ node: TreeNode; parent: number | null }> = (result.roots ?? []).map((node) => ({ node, parent: null })).reverse();
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    flat.push({ ...node, parent: node.parent ?? parent, children: undefined });
    for (const child of [...(node.children ?? [])].reverse()) stack.push({ node: child, parent: node.line });
  }
  return flat.sort((a, b) => a.line - b.line);
}

export function build(result: TreeResult): ViewModel {
  const entries = flatten(result);
  const byEntryLine = new Map<number, TreeNode>();
  for (const entry of entries) byEntryLine.set(entry.line, entry);
  const children = new Map<number, TreeNode[]>();
  const roots: TreeNode[] = [];
  for (const entry of entries) {
    const parent = entry.parent;
    if (parent === null || parent === undefined || parent === entry.line || !byEntryLine.has(parent)) {
      roots.push(entry);
    } else {
      const list = children.get(parent);
      if (list) list.push(entry);
      else children.set(parent, [entry]);
    }
  }

  const leafLine = result.leaf?.line ?? entries.find((entry) => entry.active)?.line;
  const active = new Set<number>();
  for (let line = leafLine; line !== undefined && line !== null && !active.has(line); ) {
    active.add(line);
    const entry = byEntryLine.get(line);
    line = entry?.parent ?? undefined;
  }

  const byLine = new Map<number, ViewNode>();
  const make = (entry: TreeNode, parent: ViewNode | undefined, head: boolean): ViewNode => {
    const node: ViewNode = {
      entry,
      parent,
      children: [],
      head,
      branchPoint: (children.get(entry.line)?.length ?? 0) > 1,
      onActivePath: active.has(entry.line),
      leaf: entry.line === leafLine,
    };
    byLine.set(entry.line, node);
    (parent ? parent.children : top).push(node);
    return node;
  };
  const top: ViewNode[] = [];

  // Work items: lay out the chain that starts at `entry` under `container` (undefined = top level). A chain runs
  // flat while each entry has one child; at a branch point every child becomes a head with its own chain.
  // Entries reachable twice (cycles are impossible here: each entry has one parent) are laid out once.
  const work: Array<{ entry: TreeNode; container: ViewNode | undefined; head: boolean }> = [];
  const single = roots.length === 1;
  for (const root of [...roots].reverse()) work.push({ entry: root, container: undefined, head: !single });
  while (work.length > 0) {
    const item = work.pop()!;
    let entry: TreeNode | undefined = item.entry;
    let container = item.container;
    let head = item.head;
    while (entry && !byLine.has(entry.line)) {
      const node = make(entry, container, head);
      const next: TreeNode[] = children.get(entry.line) ?? [];
      if (head) container = node;
      head = false;
      if (next.length === 1) {
        entry = next[0];
        continue;
      }
      for (const child of [...next].reverse()) work.push({ entry: child, container: node, head: true });
      entry = undefined;
    }
  }
  return { roots: top, byLine, leafLine: leafLine ?? undefined };
}

const ROLE_ICONS: Record<string, string> = {
  user: "account",
  assistant: "hubot",
  toolResult: "tools",
  bashExecution: "terminal",
  custom: "extensions",
  hookMessage: "extensions",
  compaction: "fold",
  branch_summary: "git-merge",
  custom_message: "comment",
  label: "tag",
  model_change: "settings-gear",
  thinking_level_change: "lightbulb",
  session_info: "info",
};

export function iconName(entry: TreeNode): string {
  return ROLE_ICONS[entry.role ?? ""] ?? ROLE_ICONS[entry.type ?? ""] ?? "circle-outline";
}

export function title(entry: TreeNode): string {
  const kind = entry.role ?? entry.type ?? "entry";
  const text = (entry.text ?? "").replace(/\s+/g, " ").trim();
  return text ? `${kind}: ${text}` : kind;
}

export function description(node: ViewNode): string {
  const parts: string[] = [];
  if (node.entry.label) parts.push(`🏷 ${node.entry.label}`);
  if (node.branchPoint) parts.push(`⑂ ${node.children.filter((child) => child.head).length} branches`);
  if (node.leaf) parts.push("● active leaf");
  parts.push(`line ${node.entry.line + 1}`);
  return parts.join("  ");
}
