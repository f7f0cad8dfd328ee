/**
 * Session LSP for VS Code: starts the session-lsp language server for JSON Lines files and adds what LSP has no
 * standard request for: the Session Tree view, the model context at a line, the active leaf, and the analysis of
 * files too large for VS Code to hand to an extension (over 50 MB).
 */
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ErrorHandler,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
  TransportKind,
} from "vscode-languageclient/node";

import { Discovery, discover } from "./discovery";
import { nodeProbes, pythonExtensionInterpreter } from "./probes";
import { AnalyzeFileResult, ContextResult, DecompressResult, METHODS, TreeResult } from "./protocol";
import { COMPRESSED_SELECTOR, registerCompressed } from "./compressed";
import { ContextProvider, contextUri } from "./contextDocument";
import { SessionTreeProvider } from "./treeView";
import { SessionStatus } from "./status";
import { userSettings } from "./userSettings";

const SECTION = "sessionLsp";
const SELECTOR = [
  { scheme: "file", language: "jsonl" },
  { scheme: "untitled", language: "jsonl" },
  { scheme: "file", pattern: "**/*.jsonl" },
  COMPRESSED_SELECTOR,
];

let session: Session | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<Api> {
  session = new Session(context);
  context.subscriptions.push(session);
  await session.start();
  return session.api;
}

export async function deactivate(): Promise<void> {
  await session?.stop();
}

/** What the extension exports: used by tests and by other extensions. */
export interface Api {
  client(): LanguageClient | undefined;
  ready(): Promise<void>;
}

function isSessionDocument(document: vscode.TextDocument | undefined): document is vscode.TextDocument {
  return !!document && vscode.languages.match(SELECTOR, document) > 0;
}

class Session implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel("Session LSP", { log: true });
  private client: LanguageClient | undefined;
  private starting: Promise<void> = Promise.resolve();
  private notified = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly diskDiagnostics = vscode.languages.createDiagnosticCollection("session-lsp (on disk)");
  private readonly tree: SessionTreeProvider;
  private readonly treeView: vscode.TreeView<unknown>;
  private readonly status = new SessionStatus();
  private readonly contexts = new ContextProvider();
  private followTimer: NodeJS.Timeout | undefined;

  readonly api: Api = {
    client: () => this.client,
    ready: () => this.starting,
  };

  constructor(private readonly context: vscode.ExtensionContext) {
    this.tree = new SessionTreeProvider((uri) => this.requestTree(uri));
    this.treeView = vscode.window.createTreeView("sessionLsp.tree", { treeDataProvider: this.tree, showCollapseAll: true });
    this.disposables.push(
      this.output,
      this.diskDiagnostics,
      this.treeView,
      this.status,
      vscode.workspace.registerTextDocumentContentProvider(ContextProvider.scheme, this.contexts),
      ...registerCompressed((path) => this.request<DecompressResult>(METHODS.decompress, { path })),
      vscode.commands.registerCommand("sessionLsp.restart", () => this.restart()),
      vscode.commands.registerCommand("sessionLsp.showContext", () => this.showContext()),
      vscode.commands.registerCommand("sessionLsp.goToActiveLeaf", () => this.goToActiveLeaf()),
      vscode.commands.registerCommand("sessionLsp.analyzeFile", (uri?: vscode.Uri) => this.analyzeFile(uri)),
      vscode.commands.registerCommand("sessionLsp.tree.refresh", () => this.refreshTree()),
      vscode.commands.registerCommand("sessionLsp.tree.reveal", (uri: string, line: number) => this.revealLine(vscode.Uri.parse(uri), line)),
      vscode.window.onDidChangeActiveTextEditor(() => this.activeEditorChanged()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.activeEditorChanged()),
      this.treeView.onDidChangeVisibility((event) => {
        if (event.visible) this.activeEditorChanged();
      }),
      vscode.window.onDidChangeTextEditorSelection((event) => this.selectionChanged(event)),
      vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event.document)),
      vscode.languages.onDidChangeDiagnostics((event) => this.diagnosticsChanged(event.uris)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.server.path`) || event.affectsConfiguration(`${SECTION}.interpreter`)) {
          void this.restart();
        }
      }),
    );
  }

  start(): Promise<void> {
    this.starting = this.starting.then(() => this.startClient());
    return this.starting;
  }

  private async startClient(): Promise<void> {
    const discovery = await this.discover();
    for (const note of discovery.notes) this.output.info(note);
    if (!discovery.ok) {
      this.output.error(discovery.problem);
      this.status.failed(discovery.problem);
      this.notifyOnce(discovery.problem);
      return;
    }
    const { launch } = discovery;
    this.output.info(`starting ${launch.description}: ${[launch.command, ...launch.args, "--stdio"].join(" ")}`);
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: launch.args,
      transport: TransportKind.stdio,
      options: { cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: SELECTOR,
      outputChannel: this.output,
      traceOutputChannel: this.output,
      diagnosticCollectionName: "session-lsp",
      // Failures are logged to the output channel; the one notification comes from notifyOnce.
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationFailedHandler: () => false,
      errorHandler: this.errorHandler(launch.description),
      middleware: {
        workspace: {
          // only the settings the user set: a contributed default must not override a configuration file's value
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) return answers;
            return params.items.map((item, index) => (item.section === SECTION ? this.userSettings(item.scopeUri) : answers[index]));
          },
        },
      },
    };
    const client = new LanguageClient(SECTION, "Session LSP", serverOptions, clientOptions);
    try {
      await client.start();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const problem = `session-lsp did not start (${launch.description}): ${reason}. The "Session LSP" output has the server's messages; set sessionLsp.server.path or sessionLsp.interpreter to use another one.`;
      this.output.error(problem);
      this.status.failed(problem);
      this.notifyOnce(problem);
      await client.dispose().catch(() => undefined);
      return;
    }
    this.client = client;
    this.status.running(launch.description, client.initializeResult?.serverInfo);
    client.onDidChangeState((event) => {
      if (event.newState === State.Stopped) this.status.failed("the server stopped; run Session LSP: Restart Server");
      // Restarted after a crash: what the view showed came from the old process.
      if (event.newState === State.Running) this.tree.refresh();
    });
    vscode.commands.executeCommand("setContext", "sessionLsp.active", true);
    this.activeEditorChanged();
  }

  /** Restart a server that crashed while running, at most 4 times in 3 minutes (vscode-languageclient's own
   * policy); never restart one that did not get through initialize. Either way the user hears of it once. */
  private errorHandler(description: string): ErrorHandler {
    const crashes: number[] = [];
    return {
      error: (_error, _message, count) => ({ action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true }),
      closed: () => {
        if (!this.client) return { action: CloseAction.DoNotRestart, handled: true };
        const now = Date.now();
        crashes.push(now);
        while (crashes.length > 0 && now - crashes[0] > 180_000) crashes.shift();
        if (crashes.length <= 4) {
          this.output.warn(`the server (${description}) exited; restarting it`);
          return { action: CloseAction.Restart, handled: true };
        }
        const problem = `session-lsp (${description}) crashed 5 times in 3 minutes and was not restarted. See the "Session LSP" output, then run Session LSP: Restart Server.`;
        this.output.error(problem);
        this.status.failed(problem);
        this.notifyOnce(problem);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }

  private userSettings(scopeUri: string | undefined): Record<string, unknown> {
    const config = vscode.workspace.getConfiguration(SECTION, scopeUri ? vscode.Uri.parse(scopeUri) : undefined);
    const contributed = this.context.extension.packageJSON?.contributes?.configuration?.properties ?? {};
    return userSettings(SECTION, Object.keys(contributed), (name) => config.inspect(name));
  }

  private async discover(): Promise<Discovery> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const trusted = vscode.workspace.isTrusted;
    const interpreter = config.get<string[] | string>("interpreter", []);
    return discover(
      {
        serverPath: trusted ? config.get<string>("server.path", "") : "",
        interpreter: trusted ? (typeof interpreter === "string" ? [interpreter].filter(Boolean) : interpreter) : [],
        pythonExtension: await pythonExtensionInterpreter(this.output),
      },
      { PATH: process.env.PATH, PATHEXT: process.env.PATHEXT, platform: process.platform, extensionPath: this.context.extensionPath },
      nodeProbes,
    );
  }

  private notifyOnce(problem: string): void {
    if (this.notified) return;
    this.notified = true;
    void vscode.window.showErrorMessage(`Session LSP: ${problem}`, "Open Settings", "Show Output").then((choice) => {
      if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", "@ext:session-lsp.session-lsp");
      if (choice === "Show Output") this.output.show();
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) await client.stop(2000).catch(() => undefined);
  }

  private async restart(): Promise<void> {
    this.starting = this.starting.then(async () => {
      await this.stop();
      this.notified = false;
      await this.startClient();
    });
    await this.starting;
    this.tree.refresh();
  }

  // ---------------------------------------------------------------------------------------------- requests

  private async request<R>(method: string, params: unknown): Promise<R | undefined> {
    await this.starting;
    if (!this.client || this.client.state !== State.Running) return undefined;
    try {
      return await this.client.sendRequest<R>(method, params);
    } catch (error) {
      this.output.warn(`${method} failed: ${String(error)}`);
      return undefined;
    }
  }

  private async requestTree(uri: vscode.Uri): Promise<TreeResult | undefined> {
    const result = await this.request<TreeResult>(METHODS.tree, { textDocument: { uri: uri.toString() } });
    if (result) this.status.tree(uri, result);
    return result;
  }

  private async showContext(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !isSessionDocument(editor.document)) {
      void vscode.window.showInformationMessage("Session LSP: open a session file and put the cursor on an entry.");
      return;
    }
    const position = editor.selection.active;
    const result = await this.request<ContextResult>(METHODS.context, {
      textDocument: { uri: editor.document.uri.toString() },
      position: { line: position.line, character: position.character },
    });
    if (!result) {
      void vscode.window.showWarningMessage("Session LSP: the server returned no context for this line.");
      return;
    }
    const uri = contextUri(editor.document.uri, position.line);
    this.contexts.set(uri, result, editor.document.uri, position.line);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }

  private async goToActiveLeaf(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const uri = editor && isSessionDocument(editor.document) ? editor.document.uri : this.tree.currentUri();
    if (!uri) return;
    const tree = this.tree.resultFor(uri) ?? (await this.requestTree(uri));
    const leaf = tree?.leaf;
    if (typeof leaf !== "number") {
      // A flat log (thndrs, Codex) has no tree, so no `leaf` at all.
      const flat = tree !== undefined && tree.leaf === undefined && tree.entry_count > 0;
      void vscode.window.showInformationMessage(flat
        ? `Session LSP: a ${tree.label} session is a flat log with no active leaf: the agent appends after its last record.`
        : "Session LSP: this file has no active leaf (no entries).");
      return;
    }
    await this.revealLine(uri, leaf);
  }

  private async revealLine(uri: vscode.Uri, line: number): Promise<void> {
    const position = new vscode.Position(line, 0);
    const open = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri.toString());
    const document = open?.document ?? (await vscode.workspace.openTextDocument(uri));
    const editor = await vscode.window.showTextDocument(document, {
      viewColumn: open?.viewColumn,
      selection: new vscode.Range(position, position),
      preserveFocus: false,
    });
    editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async analyzeFile(target?: vscode.Uri): Promise<void> {
    let uri = target;
    if (!uri) {
      const picked = await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { "Session files": ["jsonl", "zst"], "All files": ["*"] },
        title: "Analyze a session file on disk (for files over 50 MB, which VS Code does not hand to extensions)",
      });
      uri = picked?.[0];
    }
    if (!uri) return;
    if (uri.scheme !== "file") {
      void vscode.window.showWarningMessage("Session LSP: only files on this machine's disk can be analyzed.");
      return;
    }
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Session LSP: analyzing ${vscode.workspace.asRelativePath(uri)}` },
      () => this.request<AnalyzeFileResult>(METHODS.analyzeFile, { path: uri!.fsPath }),
    );
    if (!result || !this.client) {
      void vscode.window.showWarningMessage("Session LSP: the server could not analyze that file (see the Session LSP output).");
      return;
    }
    const diagnostics = await this.client.protocol2CodeConverter.asDiagnostics(result.diagnostics ?? []);
    this.diskDiagnostics.set(uri, diagnostics);
    this.tree.showDiskResult(uri, result.tree);
    if (result.tree) this.status.tree(uri, result.tree);
    this.status.counts(uri, diagnostics);
    await vscode.commands.executeCommand("setContext", "sessionLsp.active", true);
    await vscode.commands.executeCommand("workbench.actions.view.problems");
    this.output.info(`${uri.fsPath}: ${result.format ?? "unknown format"}, ${diagnostics.length} diagnostics`);
  }

  // -------------------------------------------------------------------------------------------- following

  /** The session the view and the status bar follow: the active editor's, else (focus in a panel, the model
   * context beside it) a session still visible; none clears the view to its welcome text. */
  private activeEditorChanged(): void {
    const active = vscode.window.activeTextEditor?.document;
    const shown = this.tree.currentUri()?.toString();
    const visible = vscode.window.visibleTextEditors.map((editor) => editor.document);
    const document = isSessionDocument(active)
      ? active
      : visible.find((candidate) => isSessionDocument(candidate) && candidate.uri.toString() === shown)
        ?? visible.find(isSessionDocument);
    if (!document) {
      this.status.hide();
      if (!this.tree.showsDiskResult()) this.tree.clear();
      return;
    }
    void vscode.commands.executeCommand("setContext", "sessionLsp.active", true);
    this.tree.follow(document.uri);
    this.status.show(document.uri);
    this.status.counts(document.uri, vscode.languages.getDiagnostics(document.uri));
  }

  private documentChanged(document: vscode.TextDocument): void {
    if (isSessionDocument(document) && this.tree.currentUri()?.toString() === document.uri.toString()) {
      this.tree.scheduleRefresh();
    }
  }

  private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
    if (!isSessionDocument(event.textEditor.document) || !this.treeView.visible) return;
    clearTimeout(this.followTimer);
    this.followTimer = setTimeout(() => {
      const node = this.tree.nodeAtLine(event.textEditor.document.uri, event.selections[0].active.line);
      if (node) void this.treeView.reveal(node, { select: true, focus: false, expand: false }).then(undefined, () => undefined);
    }, 150);
  }

  private diagnosticsChanged(uris: readonly vscode.Uri[]): void {
    // The server has analysed a file whose tree it could not give yet (asked before it had the text).
    const followed = this.tree.currentUri();
    if (followed && !this.tree.has(followed) && uris.some((uri) => uri.toString() === followed.toString())) {
      this.tree.refresh();
    }
    const current = vscode.window.activeTextEditor?.document.uri;
    if (current && uris.some((uri) => uri.toString() === current.toString())) {
      this.status.counts(current, vscode.languages.getDiagnostics(current));
    }
  }

  private refreshTree(): void {
    this.tree.refresh();
  }

  dispose(): void {
    clearTimeout(this.followTimer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
