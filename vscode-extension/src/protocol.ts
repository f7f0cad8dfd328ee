/** The server's custom requests and the JSON they return (see session_lsp/analysis/features/payloads.py). */
import type { Diagnostic } from "vscode-languageclient";

export const METHODS = {
  tree: "sessionLsp/tree",
  context: "sessionLsp/context",
  analyzeFile: "sessionLsp/analyzeFile",
} as const;

/** One entry of the conversation tree. `line` is 0-based; `parent` is the parent's line (null for a root). */
export interface TreeNode {
  line: number;
  parent: number | null;
  id?: string | null;
  type?: string;
  role?: string | null;
  text?: string;
  label?: string | null;
  active?: boolean;
  children?: TreeNode[];
}

export interface TreeResult {
  format?: string;
  version?: number | string | null;
  entries?: number;
  leaf?: { line: number; id?: string | null } | null;
  nodes?: TreeNode[];
  roots?: TreeNode[];
}

export interface ContextMessage {
  line: number | null;
  role: string;
  text: string;
}

export interface ContextResult {
  line?: number;
  messages: ContextMessage[];
  [key: string]: unknown;
}

export interface AnalyzeFileResult {
  format?: string;
  diagnostics?: Diagnostic[];
  tree?: TreeResult;
}
