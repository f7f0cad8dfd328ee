/**
 * The `sessionLsp` settings the server is sent: only those the user set (in the user, workspace or folder settings,
 * language-specific ones first). VS Code answers workspace/configuration with every contributed default filled in,
 * and the server lays the editor's settings over a configuration file's (`.session-lsp.toml`, `[tool.session-lsp]`)
 * key by key, so a default sent as if chosen (`piVersion: "1.6"`) would override the file's `pi-version`.
 */

/** What `WorkspaceConfiguration.inspect(key)` reports of one setting (the fields read here). */
export interface Inspected {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  globalLanguageValue?: unknown;
  workspaceLanguageValue?: unknown;
  workspaceFolderLanguageValue?: unknown;
}

/** The value the user chose for a setting, the most specific scope first; undefined when only the default is there. */
export function chosen(seen: Inspected | undefined): unknown {
  if (!seen) return undefined;
  return (
    seen.workspaceFolderLanguageValue ??
    seen.workspaceLanguageValue ??
    seen.globalLanguageValue ??
    seen.workspaceFolderValue ??
    seen.workspaceValue ??
    seen.globalValue
  );
}

/**
 * The settings object of `section` as the server reads it (nested as VS Code nests dotted names), built from the
 * contributed keys (`sessionLsp.piVersion`, `sessionLsp.server.path`, ...) and what the user set of each.
 */
export function userSettings(section: string, keys: readonly string[], inspect: (name: string) => Inspected | undefined): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of keys) {
    if (!key.startsWith(`${section}.`)) continue;
    const name = key.slice(section.length + 1);
    const value = chosen(inspect(name));
    if (value === undefined) continue;
    const parts = name.split(".");
    let level = settings;
    for (const part of parts.slice(0, -1)) {
      const next = level[part];
      level = (level[part] = typeof next === "object" && next !== null ? next : {}) as Record<string, unknown>;
    }
    level[parts[parts.length - 1]] = value;
  }
  return settings;
}
