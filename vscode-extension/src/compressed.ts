/**
 * `.jsonl.zst` sessions (Codex can write its rollouts compressed) shown as their text, read-only. VS Code would show
 * such a file as binary, and Node 20 has no Zstandard, so:
 * - a file system of our own, `session-lsp-zst:/path/x.jsonl.zst` (the file's path, another scheme), whose
 *   readFile asks the server for the bytes the file holds (`sessionLsp/decompress`, the reader `session-lsp check`
 *   uses); the language client's selector covers the scheme, and the server reads the URI's path as the file's;
 * - a custom editor for `*.jsonl.zst` on disk (`file:`, or `vscode-remote:` in a remote window), the default for such
 *   files, which only opens the same file under that scheme in a text editor and closes itself, so opening one from
 *   the Explorer or Quick Open just works. Its pattern names those schemes (a pattern with a `/` is matched against
 *   `scheme:path`): with a bare `*.jsonl.zst` it would also take the text editor's own URI, and a jump inside the
 *   file (F12, the tree, the Problems panel) would land on it and lose the position.
 */
import * as vscode from "vscode";

import type { DecompressResult } from "./protocol";

/** The scheme, as session_lsp/analysis/payload_types.py's COMPRESSED_SCHEME names it. */
export const COMPRESSED_SCHEME = "session-lsp-zst";
export const COMPRESSED_VIEW_TYPE = "sessionLsp.compressedSession";
export const COMPRESSED_SELECTOR = { scheme: COMPRESSED_SCHEME, pattern: "**/*.zst" };

type Decompress = (path: string) => Promise<DecompressResult | undefined>;

/** The URI a compressed file's text is shown under. */
export function textUri(file: vscode.Uri): vscode.Uri {
  return file.with({ scheme: COMPRESSED_SCHEME });
}

function fileUri(uri: vscode.Uri): vscode.Uri {
  return uri.with({ scheme: "file" });
}

class CompressedFileSystem implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly decompress: Decompress) {}

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const stat = await vscode.workspace.fs.stat(fileUri(uri));
    return { ...stat, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const result = await this.decompress(fileUri(uri).fsPath);
    if (!result) {
      throw vscode.FileSystemError.Unavailable(
        `${uri.fsPath}: the session-lsp server decompresses .jsonl.zst files, and it is not running or could not read this one (see the "Session LSP" output)`,
      );
    }
    return Buffer.from(result.base64, "base64");
  }

  readDirectory(): [string, vscode.FileType][] {
    throw vscode.FileSystemError.NoPermissions("a compressed session is read-only");
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions("a compressed session is read-only");
  }

  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions("a compressed session is read-only: session-lsp fix does not rewrite .zst files either");
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions("a compressed session is read-only");
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions("a compressed session is read-only");
  }
}

/** Opens a `*.jsonl.zst` as its text (under the scheme) in the custom editor's place, then closes the custom editor. */
class CompressedSessionRedirect implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.html = "<p>Opening the decompressed session…</p>";
    await openCompressed(document.uri, panel.viewColumn);
    panel.dispose();
  }
}

/** Show the text of the compressed session file `file` (a `file:` URI) as JSON Lines. */
export async function openCompressed(file: vscode.Uri, viewColumn?: vscode.ViewColumn): Promise<vscode.TextEditor> {
  let document = await vscode.workspace.openTextDocument(textUri(file));
  if (document.languageId !== "jsonl") document = await vscode.languages.setTextDocumentLanguage(document, "jsonl");
  return vscode.window.showTextDocument(document, { viewColumn, preview: false });
}

/** The file system, the custom editor and the command that opens a compressed session, all read through `decompress`. */
export function registerCompressed(decompress: Decompress): vscode.Disposable[] {
  return [
    vscode.workspace.registerFileSystemProvider(COMPRESSED_SCHEME, new CompressedFileSystem(decompress), {
      isReadonly: true,
      isCaseSensitive: true,
    }),
    vscode.window.registerCustomEditorProvider(COMPRESSED_VIEW_TYPE, new CompressedSessionRedirect()),
    vscode.commands.registerCommand("sessionLsp.openCompressed", async (target?: vscode.Uri) => {
      const file = target ?? (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { "Compressed sessions": ["zst"] } }))?.[0];
      if (file) await openCompressed(file.with({ scheme: "file" }));
    }),
  ];
}
