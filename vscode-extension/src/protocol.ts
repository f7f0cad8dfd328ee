/** The server's custom requests and the JSON they return (session_lsp/analysis/features/payloads.py and
 * session_lsp/server/handlers/custom.py). Lines are 0-based. */
import type { Diagnostic } from "vscode-languageclient";

export const METHODS = {
  tree: "sessionLsp/tree",
  context: "sessionLsp/context",
  analyzeFile: "sessionLsp/analyzeFile",
} as const;

/** An Elyra entry, a thndrs turn (`kind: "turn"`, its records inside) or a thndrs record outside any turn. */
export interface TreeNode {
  line: number;
  title?: string;
  id?: string | null;
  type?: string | null;
  role?: string | null;
  label?: string | null;
  /** Elyra: the parent entry's line, null for a root (also for a dangling or self parent). */
  parent?: number | null;
  /** Elyra: the children's lines, the active branch first. */
  children?: number[];
  on_active_path?: boolean;
  is_leaf?: boolean;
  /** thndrs */
  kind?: "turn" | "record";
  settled?: boolean;
  records?: Array<{ line: number; type?: string | null; title?: string }>;
}

export interface TreeResult {
  format?: string;
  version?: number | string | null;
  label?: string;
  entry_count?: number;
  /** Elyra: the line of the active leaf. */
  leaf?: number | null;
  active_path?: number[];
  roots?: number[];
  session_name?: string | null;
  title?: string | null;
  nodes?: TreeNode[];
}

export interface ContextMessage {
  role: string;
  text: string;
  line?: number | null;
  note?: string;
}

export interface ContextResult {
  format?: string;
  label?: string;
  leaf?: number | null;
  turn_id?: string | null;
  messages: ContextMessage[];
}

export interface AnalyzeFileResult {
  format?: string;
  kind?: string;
  version?: number | string | null;
  diagnostics?: Diagnostic[];
  tree?: TreeResult;
}
