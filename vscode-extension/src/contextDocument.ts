/** Read-only virtual documents (scheme `session-context`) that show the model context at a line. */
import * as path from "path";
import * as vscode from "vscode";

import type { ContextResult } from "./protocol";
import { contextText } from "./contextText";

export function contextUri(source: vscode.Uri, line: number): vscode.Uri {
  const name = `${path.basename(source.fsPath || source.path)} — context at line ${line + 1}.txt`;
  return vscode.Uri.from({ scheme: ContextProvider.scheme, path: `/${name}`, query: `${source.toString()}#${line}` });
}

export class ContextProvider implements vscode.TextDocumentContentProvider {
  static readonly scheme = "session-context";
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(uri: vscode.Uri, result: ContextResult, source: vscode.Uri, line: number): void {
    this.texts.set(uri.toString(), contextText(result, path.basename(source.fsPath || source.path), line));
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? "This context is no longer available; run Session LSP: Show Model Context Here again.\n";
  }
}
