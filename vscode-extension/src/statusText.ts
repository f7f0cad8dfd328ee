/** The status bar's words, kept apart from vscode so they are unit-tested. */
import type { TreeResult } from "./protocol";

export function formatName(tree: TreeResult | undefined): string {
  if (!tree) return "session";
  if (tree.label) return tree.label;
  if (!tree.format) return "session";
  return tree.version !== undefined && tree.version !== null ? `${tree.format} v${tree.version}` : tree.format;
}

export function statusText(tree: TreeResult | undefined, errors: number, warnings: number): string {
  const parts = [`$(list-tree) ${formatName(tree)}`];
  const entries = tree?.entry_count ?? tree?.nodes?.length;
  if (entries !== undefined) parts.push(`${entries.toLocaleString("en-US")} ${entries === 1 ? "entry" : "entries"}`);
  parts.push(`$(error) ${errors} $(warning) ${warnings}`);
  return parts.join(" · ");
}
