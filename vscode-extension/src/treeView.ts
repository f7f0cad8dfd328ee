/** The Explorer's Session Tree: the tree of the active session editor (or of a file analyzed on disk). */
import * as vscode from "vscode";

import type { TreeResult } from "./protocol";
import { ViewModel, ViewNode, build, description, iconName, orphanReason, title } from "./treeModel";

type Fetch = (uri: vscode.Uri) => Promise<TreeResult | undefined>;

export class SessionTreeProvider implements vscode.TreeDataProvider<ViewNode> {
  private readonly changed = new vscode.EventEmitter<ViewNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private uri: vscode.Uri | undefined;
  private result: TreeResult | undefined;
  private model: ViewModel | undefined;
  private diskUri: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(private readonly fetch: Fetch) {}

  currentUri(): vscode.Uri | undefined {
    return this.uri;
  }

  resultFor(uri: vscode.Uri): TreeResult | undefined {
    return this.uri?.toString() === uri.toString() ? this.result : undefined;
  }

  /** Whether the tree of `uri` is shown (a server's answer, not just a request in flight). */
  has(uri: vscode.Uri): boolean {
    return this.uri?.toString() === uri.toString() && this.model !== undefined;
  }

  /** Show the tree of `uri` (the active editor changed); fetch it again if the last attempt got nothing. */
  follow(uri: vscode.Uri): void {
    if (this.has(uri)) return;
    this.uri = uri;
    this.diskUri = undefined;
    this.refresh();
  }

  /** Whether the view shows a file analysed on disk (kept until another session editor is active). */
  showsDiskResult(): boolean {
    return this.diskUri !== undefined && this.diskUri === this.uri?.toString();
  }

  /** Show a tree that came from `sessionLsp/analyzeFile` for a file that is not open. */
  showDiskResult(uri: vscode.Uri, result: TreeResult | undefined): void {
    this.uri = uri;
    this.diskUri = uri.toString();
    this.generation += 1;
    this.set(result);
  }

  /** No session to show: the view goes back to its welcome text. */
  clear(): void {
    if (!this.uri) return;
    this.uri = undefined;
    this.diskUri = undefined;
    this.generation += 1;
    this.set(undefined);
  }

  scheduleRefresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 300);
  }

  refresh(): void {
    const uri = this.uri;
    if (!uri || this.diskUri === uri.toString()) {
      this.changed.fire(undefined);
      return;
    }
    const generation = ++this.generation;
    void this.fetch(uri).then((result) => {
      if (generation === this.generation) this.set(result);
    });
  }

  private set(result: TreeResult | undefined): void {
    this.result = result;
    this.model = result ? build(result) : undefined;
    this.changed.fire(undefined);
  }

  nodeAtLine(uri: vscode.Uri, line: number): ViewNode | undefined {
    if (this.uri?.toString() !== uri.toString()) return undefined;
    return this.model?.byLine.get(line);
  }

  getChildren(node?: ViewNode): ViewNode[] {
    if (!node) return this.model?.roots ?? [];
    return node.children;
  }

  getParent(node: ViewNode): ViewNode | undefined {
    return node.parent;
  }

  getTreeItem(node: ViewNode): vscode.TreeItem {
    const state = node.children.length === 0
      ? vscode.TreeItemCollapsibleState.None
      : node.onActivePath || !node.head
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(title(node.entry), state);
    item.id = `${this.uri?.toString()}#${node.entry.line}`;
    item.description = description(node);
    const orphan = orphanReason(node.entry);
    const tooltip = new vscode.MarkdownString();
    tooltip.appendMarkdown(`**`).appendText(title(node.entry)).appendMarkdown(`**`);
    if (node.entry.id) tooltip.appendMarkdown("\n\nid ").appendText(node.entry.id);
    if (orphan) tooltip.appendMarkdown("\n\n").appendText(`orphan: ${orphan}; pi's context walk stops at this entry`);
    tooltip.appendMarkdown("\n\n").appendText(node.onActivePath ? "on the active path (sent to the model)" : "off the active path");
    item.tooltip = tooltip;
    item.iconPath = orphan
      ? new vscode.ThemeIcon("debug-disconnect", new vscode.ThemeColor("problemsWarningIcon.foreground"))
      : new vscode.ThemeIcon(iconName(node.entry), node.onActivePath ? new vscode.ThemeColor("charts.green") : undefined);
    item.contextValue = node.leaf ? "sessionLsp.leaf" : orphan ? "sessionLsp.orphan" : node.branchPoint ? "sessionLsp.branchPoint" : "sessionLsp.entry";
    if (this.uri) {
      item.command = { command: "sessionLsp.tree.reveal", title: "Reveal Entry", arguments: [this.uri.toString(), node.entry.line] };
    }
    return item;
  }
}
