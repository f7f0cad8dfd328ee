/** The status bar item: format and version, entry count, error and warning counts of the active session. */
import * as vscode from "vscode";

import type { TreeResult } from "./protocol";
import { statusText } from "./statusText";

export class SessionStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("sessionLsp.status", vscode.StatusBarAlignment.Left, 50);
  private readonly trees = new Map<string, TreeResult>();
  private readonly tallies = new Map<string, [number, number]>();
  private uri: string | undefined;
  private server = "";
  private problem: string | undefined;

  constructor() {
    this.item.name = "Session LSP";
    this.item.command = "sessionLsp.goToActiveLeaf";
  }

  running(description: string, info: { name: string; version?: string } | undefined): void {
    this.problem = undefined;
    this.server = `${info?.name ?? "session-lsp"} ${info?.version ?? ""}`.trim() + ` — ${description}`;
    this.render();
  }

  failed(problem: string): void {
    this.problem = problem;
    this.render();
  }

  tree(uri: vscode.Uri, tree: TreeResult): void {
    this.trees.set(uri.toString(), tree);
    if (uri.toString() === this.uri) this.render();
  }

  counts(uri: vscode.Uri, diagnostics: readonly vscode.Diagnostic[]): void {
    let errors = 0;
    let warnings = 0;
    for (const diagnostic of diagnostics) {
      if (diagnostic.severity === vscode.DiagnosticSeverity.Error) errors += 1;
      else if (diagnostic.severity === vscode.DiagnosticSeverity.Warning) warnings += 1;
    }
    this.tallies.set(uri.toString(), [errors, warnings]);
    if (uri.toString() === this.uri) this.render();
  }

  show(uri: vscode.Uri): void {
    this.uri = uri.toString();
    this.render();
  }

  hide(): void {
    this.uri = undefined;
    this.item.hide();
  }

  private render(): void {
    if (this.problem) {
      this.item.text = "$(warning) Session LSP: no server";
      this.item.tooltip = this.problem;
      this.item.command = "sessionLsp.restart";
      this.item.show();
      return;
    }
    if (!this.uri) return;
    const [errors, warnings] = this.tallies.get(this.uri) ?? [0, 0];
    this.item.text = statusText(this.trees.get(this.uri), errors, warnings);
    this.item.tooltip = `Session LSP: ${this.server}\nClick to go to the active leaf.`;
    this.item.command = "sessionLsp.goToActiveLeaf";
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
