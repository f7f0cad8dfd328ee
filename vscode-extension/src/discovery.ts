/**
 * Which server to start, decided as the Python tools extensions (black, ruff, pylint) decide: an explicit path,
 * else the command on PATH, else the copy bundled in the .vsix run by a Python interpreter. Pure: the caller
 * passes in the file-system and process probes, so the order is unit-tested without VS Code.
 */
import * as path from "path";

export const MIN_PYTHON: readonly [number, number] = [3, 11];
export const EXECUTABLE = "session-lsp";

/** How a candidate was found; shown in the output channel and in the status bar tooltip. */
export type Source = "setting" | "path" | "bundled";

export interface Launch {
  source: Source;
  command: string;
  /** vscode-languageclient appends `--stdio` to these. */
  args: string[];
  description: string;
}

export interface Probes {
  /** True when `file` exists and may be executed. */
  isExecutable(file: string): boolean;
  exists(file: string): boolean;
  /** Names in a folder, [] when it does not exist. */
  listDir(folder: string): string[];
  /** `major.minor` of the interpreter `argv` (command + leading args), or undefined when it cannot run. */
  pythonVersion(argv: string[]): Promise<[number, number] | undefined>;
}

export interface Settings {
  serverPath: string;
  interpreter: string[];
  /** The Python extension's selected interpreter, when that extension is installed. */
  pythonExtension?: string[];
}

export interface Environment {
  PATH?: string;
  PATHEXT?: string;
  platform: NodeJS.Platform;
  /** Root of the unpacked extension (holds bundled/). */
  extensionPath: string;
}

/** `name` found in the PATH folders, with Windows' PATHEXT, or undefined. */
export function findOnPath(name: string, env: Environment, probes: Probes): string | undefined {
  const win = env.platform === "win32";
  const separator = win ? ";" : ":";
  const suffixes = win ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter(Boolean)] : [""];
  const join = win ? path.win32.join : path.posix.join;
  for (const folder of (env.PATH ?? "").split(separator)) {
    if (!folder) continue;
    for (const suffix of suffixes) {
      const candidate = join(folder, name + suffix);
      if (probes.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function bundledScript(env: Environment): string {
  return path.join(env.extensionPath, "bundled", "tool", "server.py");
}

/** The CPython versions the bundled compiled dependencies (msgspec, lz4) were built for: folders `native/cp311`, ... */
export function bundledPythons(env: Environment, probes: Probes): Array<[number, number]> {
  const versions: Array<[number, number]> = [];
  for (const name of probes.listDir(path.join(env.extensionPath, "bundled", "native"))) {
    const match = /^cp3(\d+)$/.exec(name);
    if (match) versions.push([3, Number(match[1])]);
  }
  return versions.sort((a, b) => a[1] - b[1]);
}

export function versionAtLeast(version: readonly [number, number], minimum: readonly [number, number]): boolean {
  return version[0] > minimum[0] || (version[0] === minimum[0] && version[1] >= minimum[1]);
}

/** The interpreters to try for the bundled server, most specific first, without repeats. */
export function interpreterCandidates(settings: Settings, platform: NodeJS.Platform): string[][] {
  const lists = [settings.interpreter, settings.pythonExtension ?? [], platform === "win32" ? ["py", "-3"] : ["python3"]];
  const seen = new Set<string>();
  const result: string[][] = [];
  for (const argv of lists) {
    if (argv.length === 0 || !argv[0]) continue;
    const key = argv.join("\0");
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(argv);
  }
  return result;
}

export type Discovery =
  | { ok: true; launch: Launch; notes: string[] }
  | { ok: false; problem: string; notes: string[] };

/**
 * The server to start. `notes` lists every candidate looked at and why it was passed over, for the output
 * channel; `problem` is the one message shown to the user when nothing fits.
 */
export async function discover(settings: Settings, env: Environment, probes: Probes): Promise<Discovery> {
  const notes: string[] = [];
  const configured = settings.serverPath.trim();
  if (configured) {
    if (probes.isExecutable(configured)) {
      return { ok: true, launch: { source: "setting", command: configured, args: ["serve"], description: `${configured} (sessionLsp.server.path)` }, notes };
    }
    return {
      ok: false,
      notes,
      problem: `sessionLsp.server.path is set to "${configured}", which is not an executable file. Fix the setting or clear it to use session-lsp on PATH or the bundled server.`,
    };
  }
  const onPath = findOnPath(EXECUTABLE, env, probes);
  if (onPath) {
    return { ok: true, launch: { source: "path", command: onPath, args: ["serve"], description: `${onPath} (found on PATH)` }, notes };
  }
  notes.push(`${EXECUTABLE} is not on PATH`);
  const script = bundledScript(env);
  if (!probes.exists(script)) {
    notes.push(`no bundled server at ${script}`);
    return {
      ok: false,
      notes,
      problem: `No session-lsp server found: it is not on PATH and this build of the extension has no bundled copy. Install it (pip install session-lsp) or set sessionLsp.server.path.`,
    };
  }
  const wanted = MIN_PYTHON.join(".");
  const built = bundledPythons(env, probes);
  const builtText = built.map((v) => v.join(".")).join(", ");
  for (const argv of interpreterCandidates(settings, env.platform)) {
    const version = await probes.pythonVersion(argv);
    const shown = argv.join(" ");
    if (!version) {
      notes.push(`${shown}: does not run`);
      continue;
    }
    if (!versionAtLeast(version, MIN_PYTHON)) {
      notes.push(`${shown}: Python ${version.join(".")}, the bundled server needs ${wanted}+`);
      continue;
    }
    if (built.length > 0 && !built.some((v) => v[0] === version[0] && v[1] === version[1])) {
      notes.push(`${shown}: Python ${version.join(".")}, the bundled msgspec is built for ${builtText} only`);
      continue;
    }
    return {
      ok: true,
      notes,
      launch: { source: "bundled", command: argv[0], args: [...argv.slice(1), script], description: `bundled server run by ${shown} (Python ${version.join(".")})` },
    };
  }
  return {
    ok: false,
    notes,
    problem: `The bundled session-lsp server needs Python ${builtText || wanted + "+"} and none was found (${notes.filter((n) => !n.startsWith(EXECUTABLE) && !n.startsWith("no bundled")).join("; ")}). Set sessionLsp.interpreter to a Python ${wanted}+, or sessionLsp.server.path to a session-lsp executable.`,
  };
}
