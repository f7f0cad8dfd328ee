/**
 * The Session Tree as the view shows it. Elyra: a linear run of entries is one flat list and nesting happens only
 * at branch points, so a 100,000-entry linear session is one level deep rather than 100,000; the active branch
 * comes first. thndrs: one collapsible node per turn with its records. Pure (no vscode import) and iterative, so
 * a deep or adversarial file (cycles, missing parents) cannot blow the stack.
 */
import type { TreeNode, TreeResult } from "./protocol";

export interface ViewNode {
  entry: TreeNode;
  /** The node above it in the view (not necessarily the entry's parent entry). */
  parent: ViewNode | undefined;
  children: ViewNode[];
  /** First entry of a branch under a branch point, of one of several roots, or a thndrs turn. */
  head: boolean;
  branchPoint: boolean;
  onActivePath: boolean;
  leaf: boolean;
  /** Not reached from any root: it sits on a parentId loop. */
  unreachable: boolean;
}

export interface ViewModel {
  roots: ViewNode[];
  /** The most specific node of each line (a thndrs record rather than its turn). */
  byLine: Map<number, ViewNode>;
  leafLine: number | undefined;
}

function node(entry: TreeNode, parent: ViewNode | undefined, head: boolean): ViewNode {
  return { entry, parent, children: [], head, branchPoint: false, onActivePath: false, leaf: false, unreachable: false };
}

export function build(result: TreeResult): ViewModel {
  const nodes = result.nodes ?? [];
  return nodes.some((entry) => entry.kind === "turn" || entry.kind === "record") ? buildTurns(nodes) : buildEntries(result, nodes);
}

function buildTurns(nodes: TreeNode[]): ViewModel {
  const roots: ViewNode[] = [];
  const byLine = new Map<number, ViewNode>();
  for (const entry of nodes) {
    const top = node(entry, undefined, entry.kind === "turn");
    roots.push(top);
    if (!byLine.has(entry.line)) byLine.set(entry.line, top);
    if (entry.kind !== "turn") continue;
    for (const record of entry.records ?? []) {
      const child = node({ line: record.line, type: record.type, title: record.title, kind: "record" }, top, false);
      top.children.push(child);
      byLine.set(record.line, child);
    }
  }
  return { roots, byLine, leafLine: undefined };
}

function buildEntries(result: TreeResult, entries: TreeNode[]): ViewModel {
  const byEntryLine = new Map<number, TreeNode>();
  for (const entry of entries) byEntryLine.set(entry.line, entry);
  const childrenOf = (entry: TreeNode): TreeNode[] => {
    const lines = entry.children ?? [];
    return lines.map((line) => byEntryLine.get(line)).filter((child): child is TreeNode => child !== undefined && child.line !== entry.line);
  };
  const isRoot = (entry: TreeNode): boolean =>
    entry.parent === null || entry.parent === undefined || entry.parent === entry.line || !byEntryLine.has(entry.parent);
  const rootEntries = result.roots
    ? result.roots.map((line) => byEntryLine.get(line)).filter((entry): entry is TreeNode => entry !== undefined)
    : entries.filter(isRoot);

  const leafLine = typeof result.leaf === "number" ? result.leaf : entries.find((entry) => entry.is_leaf)?.line;
  const active = new Set<number>(result.active_path ?? entries.filter((entry) => entry.on_active_path).map((entry) => entry.line));

  const byLine = new Map<number, ViewNode>();
  const top: ViewNode[] = [];
  const make = (entry: TreeNode, container: ViewNode | undefined, head: boolean): ViewNode => {
    const view = node(entry, container, head);
    view.branchPoint = childrenOf(entry).length > 1;
    view.onActivePath = active.has(entry.line);
    view.leaf = entry.line === leafLine;
    byLine.set(entry.line, view);
    (container ? container.children : top).push(view);
    return view;
  };

  // Work items: lay out the chain that starts at `entry` under `container` (undefined = top level). A chain runs
  // flat while each entry has one child; at a branch point every child becomes a head with its own chain. An
  // entry already laid out (a loop) ends the chain.
  const work: Array<{ entry: TreeNode; container: ViewNode | undefined; head: boolean }> = [];
  const layOut = (starts: TreeNode[], head: boolean): void => {
    for (const entry of [...starts].reverse()) work.push({ entry, container: undefined, head });
    while (work.length > 0) {
      const item = work.pop()!;
      let entry: TreeNode | undefined = item.entry;
      let container = item.container;
      let isHead = item.head;
      while (entry && !byLine.has(entry.line)) {
        const view = make(entry, container, isHead);
        const next = childrenOf(entry);
        if (isHead) container = view;
        isHead = false;
        if (next.length === 1) {
          entry = next[0];
          continue;
        }
        for (const child of [...next].reverse()) work.push({ entry: child, container: view, head: true });
        entry = undefined;
      }
    }
  };
  layOut(rootEntries, rootEntries.length !== 1);
  const unreached = entries.filter((entry) => !byLine.has(entry.line));
  layOut(unreached, true);
  for (const entry of unreached) {
    const view = byLine.get(entry.line);
    if (view) view.unreachable = true;
  }
  return { roots: top, byLine, leafLine };
}

const ICONS: Record<string, string> = {
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
  turn: "comment-discussion",
  session_meta: "info",
  tool_started: "tools",
  tool_finished: "tools",
  assistant_finished: "hubot",
  reasoning_finished: "lightbulb",
  failed: "error",
  cancelled: "circle-slash",
  compaction_audit: "fold",
};

export function iconName(entry: TreeNode): string {
  return ICONS[entry.role ?? ""] ?? ICONS[entry.type ?? ""] ?? ICONS[entry.kind ?? ""] ?? "circle-outline";
}

export function title(entry: TreeNode): string {
  const text = (entry.title ?? "").replace(/\s+/g, " ").trim();
  return text || entry.role || entry.type || (entry.kind === "turn" ? `turn ${entry.id ?? ""}`.trim() : "entry");
}

/** Why a root is one only because its parent link is broken (pi's context walk stops there), or undefined. */
export function orphanReason(entry: TreeNode): string | undefined {
  return typeof entry.orphan === "string" && entry.orphan ? entry.orphan : undefined;
}

export function description(view: ViewNode): string {
  const parts: string[] = [];
  const orphan = orphanReason(view.entry);
  if (orphan) parts.push(`⚠ orphan: ${orphan}`);
  if (view.entry.label) parts.push(`🏷 ${view.entry.label}`);
  if (view.branchPoint) parts.push(`⑂ ${view.children.filter((child) => child.head).length} branches`);
  if (view.leaf) parts.push("● active leaf");
  if (view.unreachable) parts.push("⟲ on a parentId loop");
  if (view.entry.kind === "turn") {
    parts.push(`${view.children.length} records`);
    if (view.entry.settled === false) parts.push("not settled");
  }
  parts.push(`line ${view.entry.line + 1}`);
  return parts.join("  ");
}
