"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));

// test/discovery.test.ts
var import_node_assert = require("node:assert");
var import_node_test = require("node:test");

// src/discovery.ts
var path = __toESM(require("path"));
var MIN_PYTHON = [3, 11];
var EXECUTABLE = "session-lsp";
function findOnPath(name, env2, probes2) {
  const win = env2.platform === "win32";
  const separator = win ? ";" : ":";
  const suffixes = win ? ["", ...(env2.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter(Boolean)] : [""];
  const join2 = win ? path.win32.join : path.posix.join;
  for (const folder of (env2.PATH ?? "").split(separator)) {
    if (!folder) continue;
    for (const suffix of suffixes) {
      const candidate = join2(folder, name + suffix);
      if (probes2.isExecutable(candidate)) return candidate;
    }
  }
  return void 0;
}
function bundledScript(env2) {
  return path.join(env2.extensionPath, "bundled", "tool", "server.py");
}
function bundledPythons(env2, probes2) {
  const versions = [];
  for (const name of probes2.listDir(path.join(env2.extensionPath, "bundled", "native"))) {
    const match = /^cp3(\d+)$/.exec(name);
    if (match) versions.push([3, Number(match[1])]);
  }
  return versions.sort((a, b) => a[1] - b[1]);
}
function versionAtLeast(version, minimum) {
  return version[0] > minimum[0] || version[0] === minimum[0] && version[1] >= minimum[1];
}
function interpreterCandidates(settings, platform) {
  const lists = [settings.interpreter, settings.pythonExtension ?? [], platform === "win32" ? ["py", "-3"] : ["python3"]];
  const seen = /* @__PURE__ */ new Set();
  const result = [];
  for (const argv of lists) {
    if (argv.length === 0 || !argv[0]) continue;
    const key = argv.join("\0");
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(argv);
  }
  return result;
}
async function discover(settings, env2, probes2) {
  const notes = [];
  const configured = settings.serverPath.trim();
  if (configured) {
    if (probes2.isExecutable(configured)) {
      return { ok: true, launch: { source: "setting", command: configured, args: ["serve"], description: `${configured} (sessionLsp.server.path)` }, notes };
    }
    return {
      ok: false,
      notes,
      problem: `sessionLsp.server.path is set to "${configured}", which is not an executable file. Fix the setting or clear it to use session-lsp on PATH or the bundled server.`
    };
  }
  const onPath = findOnPath(EXECUTABLE, env2, probes2);
  if (onPath) {
    return { ok: true, launch: { source: "path", command: onPath, args: ["serve"], description: `${onPath} (found on PATH)` }, notes };
  }
  notes.push(`${EXECUTABLE} is not on PATH`);
  const script2 = bundledScript(env2);
  if (!probes2.exists(script2)) {
    notes.push(`no bundled server at ${script2}`);
    return {
      ok: false,
      notes,
      problem: `No session-lsp server found: it is not on PATH and this build of the extension has no bundled copy. Install it (pip install session-lsp) or set sessionLsp.server.path.`
    };
  }
  const wanted = MIN_PYTHON.join(".");
  const built = bundledPythons(env2, probes2);
  const builtText = built.map((v) => v.join(".")).join(", ");
  for (const argv of interpreterCandidates(settings, env2.platform)) {
    const version = await probes2.pythonVersion(argv);
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
      launch: { source: "bundled", command: argv[0], args: [...argv.slice(1), script2], description: `bundled server run by ${shown} (Python ${version.join(".")})` }
    };
  }
  return {
    ok: false,
    notes,
    problem: `The bundled session-lsp server needs Python ${builtText || wanted + "+"} and none was found (${notes.filter((n) => !n.startsWith(EXECUTABLE) && !n.startsWith("no bundled")).join("; ")}). Set sessionLsp.interpreter to a Python ${wanted}+, or sessionLsp.server.path to a session-lsp executable.`
  };
}

// test/discovery.test.ts
function probes(executables, files, versions, native = []) {
  const asked = [];
  return {
    asked,
    listDir: (folder) => folder === "/ext/bundled/native" ? native : [],
    isExecutable: (file) => executables.includes(file),
    exists: (file) => files.includes(file) || executables.includes(file),
    pythonVersion: async (argv) => {
      asked.push(argv.join(" "));
      return versions[argv.join(" ")];
    }
  };
}
var env = { PATH: "/usr/local/bin:/usr/bin", platform: "linux", extensionPath: "/ext" };
var script = "/ext/bundled/tool/server.py";
var none = { serverPath: "", interpreter: [] };
(0, import_node_test.test)("an explicit server path wins and is started with serve", async () => {
  const found = await discover({ ...none, serverPath: "/opt/sl/bin/session-lsp" }, env, probes(["/opt/sl/bin/session-lsp", "/usr/bin/session-lsp"], [script], {}));
  import_node_assert.strict.ok(found.ok);
  import_node_assert.strict.equal(found.launch.source, "setting");
  import_node_assert.strict.equal(found.launch.command, "/opt/sl/bin/session-lsp");
  import_node_assert.strict.deepEqual(found.launch.args, ["serve"]);
});
(0, import_node_test.test)("a server path that is not executable is reported, not silently replaced", async () => {
  const found = await discover({ ...none, serverPath: "/nope/session-lsp" }, env, probes(["/usr/bin/session-lsp"], [script], {}));
  import_node_assert.strict.ok(!found.ok);
  import_node_assert.strict.match(found.problem, /sessionLsp\.server\.path is set to "\/nope\/session-lsp"/);
});
(0, import_node_test.test)("session-lsp on PATH comes before the bundled copy", async () => {
  const found = await discover(none, env, probes(["/usr/bin/session-lsp"], [script], { python3: [3, 12] }));
  import_node_assert.strict.ok(found.ok);
  import_node_assert.strict.equal(found.launch.source, "path");
  import_node_assert.strict.equal(found.launch.command, "/usr/bin/session-lsp");
});
(0, import_node_test.test)("the first folder on PATH that has it wins", () => {
  import_node_assert.strict.equal(findOnPath("session-lsp", env, probes(["/usr/local/bin/session-lsp", "/usr/bin/session-lsp"], [], {})), "/usr/local/bin/session-lsp");
});
(0, import_node_test.test)("Windows PATH uses ; and PATHEXT", () => {
  const win = { PATH: "C:\\Tools;C:\\Py\\Scripts", PATHEXT: ".COM;.EXE", platform: "win32", extensionPath: "C:\\ext" };
  import_node_assert.strict.equal(findOnPath("session-lsp", win, probes(["C:\\Py\\Scripts\\session-lsp.EXE"], [], {})), "C:\\Py\\Scripts\\session-lsp.EXE");
});
(0, import_node_test.test)("bundled: the interpreter setting, then the Python extension's, then python3; too old ones are skipped", async () => {
  const p = probes([], [script], { "/old/python": [3, 10], "/venv/bin/python": [3, 11], python3: [3, 12] });
  const found = await discover({ serverPath: "", interpreter: ["/old/python"], pythonExtension: ["/venv/bin/python"] }, env, p);
  import_node_assert.strict.ok(found.ok);
  import_node_assert.strict.equal(found.launch.source, "bundled");
  import_node_assert.strict.equal(found.launch.command, "/venv/bin/python");
  import_node_assert.strict.deepEqual(found.launch.args, [script]);
  import_node_assert.strict.deepEqual(p.asked, ["/old/python", "/venv/bin/python"]);
  import_node_assert.strict.ok(found.notes.some((note) => note.includes("/old/python: Python 3.10")));
});
(0, import_node_test.test)("interpreter arguments are kept before the script", async () => {
  const found = await discover({ serverPath: "", interpreter: ["/usr/bin/env", "python3.12"] }, env, probes([], [script], { "/usr/bin/env python3.12": [3, 12] }));
  import_node_assert.strict.ok(found.ok);
  import_node_assert.strict.equal(found.launch.command, "/usr/bin/env");
  import_node_assert.strict.deepEqual(found.launch.args, ["python3.12", script]);
});
(0, import_node_test.test)("no usable Python gives one message naming both settings", async () => {
  const found = await discover(none, env, probes([], [script], { python3: [3, 9] }));
  import_node_assert.strict.ok(!found.ok);
  import_node_assert.strict.match(found.problem, /Python 3\.11\+/);
  import_node_assert.strict.match(found.problem, /sessionLsp\.interpreter/);
  import_node_assert.strict.match(found.problem, /sessionLsp\.server\.path/);
  import_node_assert.strict.match(found.problem, /python3: Python 3\.9/);
});
(0, import_node_test.test)("without a bundled copy the message says how to install", async () => {
  const found = await discover(none, env, probes([], [], { python3: [3, 12] }));
  import_node_assert.strict.ok(!found.ok);
  import_node_assert.strict.match(found.problem, /pip install session-lsp/);
});
(0, import_node_test.test)("bundled: an interpreter the compiled dependencies were not built for is passed over", async () => {
  const p = probes([], [script], { "/usr/bin/python3.15": [3, 15], python3: [3, 12] }, ["cp311", "cp312", "README"]);
  const found = await discover({ serverPath: "", interpreter: ["/usr/bin/python3.15"] }, env, p);
  import_node_assert.strict.ok(found.ok);
  import_node_assert.strict.equal(found.launch.command, "python3");
  import_node_assert.strict.ok(found.notes.includes("/usr/bin/python3.15: Python 3.15, the bundled msgspec is built for 3.11, 3.12 only"));
  const none15 = await discover({ serverPath: "", interpreter: [] }, env, probes([], [script], { python3: [3, 15] }, ["cp311", "cp312"]));
  import_node_assert.strict.ok(!none15.ok);
  import_node_assert.strict.match(none15.problem, /needs Python 3\.11, 3\.12 and none was found/);
});
(0, import_node_test.test)("interpreter candidates drop repeats and empty settings", () => {
  import_node_assert.strict.deepEqual(interpreterCandidates({ serverPath: "", interpreter: [], pythonExtension: ["python3"] }, "linux"), [["python3"]]);
  import_node_assert.strict.deepEqual(interpreterCandidates({ serverPath: "", interpreter: [""] }, "win32"), [["py", "-3"]]);
});
