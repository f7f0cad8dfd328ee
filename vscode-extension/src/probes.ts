/** The real file-system and process probes behind `discovery.discover`, and the Python extension's interpreter. */
import { execFile } from "child_process";
import * as fs from "fs";
import * as vscode from "vscode";

import { Probes } from "./discovery";

const VERSION_SCRIPT = "import sys; print('%d.%d' % sys.version_info[:2])";

export const nodeProbes: Probes = {
  isExecutable(file: string): boolean {
    try {
      if (!fs.statSync(file).isFile()) return false;
      fs.accessSync(file, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  exists(file: string): boolean {
    return fs.existsSync(file);
  },
  listDir(folder: string): string[] {
    try {
      return fs.readdirSync(folder);
    } catch {
      return [];
    }
  },
  pythonVersion(argv: string[]): Promise<[number, number] | undefined> {
    return new Promise((resolve) => {
      execFile(argv[0], [...argv.slice(1), "-c", VERSION_SCRIPT], { timeout: 10_000 }, (error, stdout) => {
        const match = /^(\d+)\.(\d+)\s*$/.exec(String(stdout));
        resolve(error || !match ? undefined : [Number(match[1]), Number(match[2])]);
      });
    });
  },
};

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  resolveEnvironment(environment: { path: string }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
}

interface PythonApi {
  environments?: PythonEnvironmentsApi;
  settings?: { getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined } };
}

/** The interpreter selected in ms-python.python, or undefined when it is not installed or has none. */
export async function pythonExtensionInterpreter(log: vscode.LogOutputChannel): Promise<string[] | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>("ms-python.python");
  if (!extension) return undefined;
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const environments = api?.environments;
    if (environments) {
      const active = environments.getActiveEnvironmentPath(resource);
      const resolved = active ? await environments.resolveEnvironment(active) : undefined;
      const executable = resolved?.executable.uri?.fsPath;
      if (executable) return [executable];
    }
    const command = api?.settings?.getExecutionDetails(resource).execCommand;
    return command && command.length > 0 ? command : undefined;
  } catch (error) {
    log.warn(`could not ask the Python extension for its interpreter: ${String(error)}`);
    return undefined;
  }
}
