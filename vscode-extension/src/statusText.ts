/** The status bar's words, kept apart from vscode so they are unit-tested. */
import type { TreeResult } from "./protocol";

const FORMAT_NAMES: Record<string, string> = { elyra: "Elyra", thndrs: "thndrs", plain: "not a session" };

export function formatName(tree: TreeResult | undefined): string {
  if (!tree?.format) return "session";
  const name = FORMAT_NAMES[tree.format] ?? tree.format;
  return tree.version !== undefined && tree.version !== null && tree.format !== "plain" ? `${name} v${tree.version}` : name;
}

export function statusText(tree: TreeResult | undefined, errors: number, warnings: number): string {
  const parts = [`$(list-tree) ${formatName(tree)}`];
  const entries = tree?.entries ?? tree?.nodes?.length;
  if (entries !== undefined) parts.push(`${entries.toLocaleString("en-US")} ${entries === 1 ? "entry" : "entries"}`);
  parts.push(`$(error) ${errors} $(warning) ${warnings}`);
  return parts.join(" · ");
}
