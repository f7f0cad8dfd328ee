import { strict as assert } from "node:assert";
import { test } from "node:test";

import { Environment, Probes, Settings, discover, findOnPath, interpreterCandidates } from "../src/discovery";

function probes(executables: string[], files: string[], versions: Record<string, [number, number]>, native: string[] = []): Probes & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    listDir: (folder) => (folder === "/ext/bundled/native" ? native : []),
    isExecutable: (file) => executables.includes(file),
    exists: (file) => files.includes(file) || executables.includes(file),
    pythonVersion: async (argv) => {
      asked.push(argv.join(" "));
      return versions[argv.join(" ")];
    },
  };
}

const env: Environment = { PATH: "/usr/local/bin:/usr/bin", platform: "linux", extensionPath: "/ext" };
const script = "/ext/bundled/tool/server.py";
const none: Settings = { serverPath: "", interpreter: [] };

test("an explicit server path wins and is started with serve", async () => {
  const found = await discover({ ...none, serverPath: "/opt/sl/bin/session-lsp" }, env, probes(["/opt/sl/bin/session-lsp", "/usr/bin/session-lsp"], [script], {}));
  assert.ok(found.ok);
  assert.equal(found.launch.source, "setting");
  assert.equal(found.launch.command, "/opt/sl/bin/session-lsp");
  assert.deepEqual(found.launch.args, ["serve"]);
});

test("a server path that is not executable is reported, not silently replaced", async () => {
  const found = await discover({ ...none, serverPath: "/nope/session-lsp" }, env, probes(["/usr/bin/session-lsp"], [script], {}));
  assert.ok(!found.ok);
  assert.match(found.problem, /sessionLsp\.server\.path is set to "\/nope\/session-lsp"/);
});

test("session-lsp on PATH comes before the bundled copy", async () => {
  const found = await discover(none, env, probes(["/usr/bin/session-lsp"], [script], { python3: [3, 12] }));
  assert.ok(found.ok);
  assert.equal(found.launch.source, "path");
  assert.equal(found.launch.command, "/usr/bin/session-lsp");
});

test("the first folder on PATH that has it wins", () => {
  assert.equal(findOnPath("session-lsp", env, probes(["/usr/local/bin/session-lsp", "/usr/bin/session-lsp"], [], {})), "/usr/local/bin/session-lsp");
});

test("Windows PATH uses ; and PATHEXT", () => {
  const win: Environment = { PATH: "C:\\Tools;C:\\Py\\Scripts", PATHEXT: ".COM;.EXE", platform: "win32", extensionPath: "C:\\ext" };
  assert.equal(findOnPath("session-lsp", win, probes(["C:\\Py\\Scripts\\session-lsp.EXE"], [], {})), "C:\\Py\\Scripts\\session-lsp.EXE");
});

test("bundled: the interpreter setting, then the Python extension's, then python3; too old ones are skipped", async () => {
  const p = probes([], [script], { "/old/python": [3, 10], "/venv/bin/python": [3, 11], python3: [3, 12] });
  const found = await discover({ serverPath: "", interpreter: ["/old/python"], pythonExtension: ["/venv/bin/python"] }, env, p);
  assert.ok(found.ok);
  assert.equal(found.launch.source, "bundled");
  assert.equal(found.launch.command, "/venv/bin/python");
  assert.deepEqual(found.launch.args, [script]);
  assert.deepEqual(p.asked, ["/old/python", "/venv/bin/python"]);
  assert.ok(found.notes.some((note) => note.includes("/old/python: Python 3.10")));
});

test("interpreter arguments are kept before the script", async () => {
  const found = await discover({ serverPath: "", interpreter: ["/usr/bin/env", "python3.12"] }, env, probes([], [script], { "/usr/bin/env python3.12": [3, 12] }));
  assert.ok(found.ok);
  assert.equal(found.launch.command, "/usr/bin/env");
  assert.deepEqual(found.launch.args, ["python3.12", script]);
});

test("no usable Python gives one message naming both settings", async () => {
  const found = await discover(none, env, probes([], [script], { python3: [3, 9] }));
  assert.ok(!found.ok);
  assert.match(found.problem, /Python 3\.11\+/);
  assert.match(found.problem, /sessionLsp\.interpreter/);
  assert.match(found.problem, /sessionLsp\.server\.path/);
  assert.match(found.problem, /python3: Python 3\.9/);
});

test("without a bundled copy the message says how to install", async () => {
  const found = await discover(none, env, probes([], [], { python3: [3, 12] }));
  assert.ok(!found.ok);
  assert.match(found.problem, /pip install session-lsp/);
});

test("bundled: an interpreter the compiled dependencies were not built for is passed over", async () => {
  const p = probes([], [script], { "/usr/bin/python3.15": [3, 15], python3: [3, 12] }, ["cp311", "cp312", "README"]);
  const found = await discover({ serverPath: "", interpreter: ["/usr/bin/python3.15"] }, env, p);
  assert.ok(found.ok);
  assert.equal(found.launch.command, "python3");
  assert.ok(found.notes.includes("/usr/bin/python3.15: Python 3.15, the bundled msgspec is built for 3.11, 3.12 only"));
  const none15 = await discover({ serverPath: "", interpreter: [] }, env, probes([], [script], { python3: [3, 15] }, ["cp311", "cp312"]));
  assert.ok(!none15.ok);
  assert.match(none15.problem, /needs Python 3\.11, 3\.12 and none was found/);
});

test("interpreter candidates drop repeats and empty settings", () => {
  assert.deepEqual(interpreterCandidates({ serverPath: "", interpreter: [], pythonExtension: ["python3"] }, "linux"), [["python3"]]);
  assert.deepEqual(interpreterCandidates({ serverPath: "", interpreter: [""] }, "win32"), [["py", "-3"]]);
});
