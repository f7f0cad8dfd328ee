// What one real pi release does with session files, as JSON Lines on stdout (one object per file, in order).
// Usage: node oracle.mjs RELEASE_DIR < files.json   (files.json: [{"path": ..., "timeoutMs": ...}, ...])
// RELEASE_DIR is node_modules/pi073 (run on node >= 20) or node_modules/pi16 (run on node22's binary).
// Each file is copied to a fresh temp dir (inside one removed at the end) and opened there with SessionManager.open,
// the call pi makes on resume, then buildSessionContext, convertToLlm and transformMessages (what the provider is
// sent), then getTree. The work runs in a worker thread: a parent cycle makes pi spin forever, so a worker that
// overruns its time is terminated and the file reported as a hang in the phase it reached.
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const here = fileURLToPath(import.meta.url);

function findModule(releaseDir, names) {
  for (const name of names) {
    for (const base of [join(releaseDir, "node_modules"), join(releaseDir, "..")]) {
      const candidate = join(base, name);
      if (existsSync(candidate)) return pathToFileURL(candidate).href;
    }
  }
  throw new Error(`cannot find ${names.join(" or ")} from ${releaseDir}`);
}

async function workerMain() {
  const { releaseDir, root } = workerData;
  // Record which line text each parsed object came from, so pi's entries can be mapped back to file lines.
  const origin = new WeakMap();
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    const value = parse.call(JSON, text, reviver);
    if (value !== null && typeof value === "object") origin.set(value, text);
    return value;
  };
  const sm = await import(pathToFileURL(join(releaseDir, "dist/core/session-manager.js")).href);
  const messages = await import(pathToFileURL(join(releaseDir, "dist/core/messages.js")).href);
  const transform = await import(findModule(releaseDir, [
    "@earendil-works/pi-ai/dist/api/transform-messages.js",
    "@mariozechner/pi-ai/dist/providers/transform-messages.js",
  ]));
  const model = { id: "oracle", provider: "oracle", api: "oracle", input: ["text", "image"] };
  parentPort.postMessage({ ready: true });
  parentPort.on("message", ({ path }) => {
    const dir = mkdtempSync(join(root, "file-"));
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    const before = readFileSync(copy);
    const lines = before.toString("utf8").split("\n");
    const where = new Map();
    lines.forEach((text, index) => {
      // pi 0.73 parses trimmed lines: an object is found by its exact text, else by its trimmed text
      for (const key of new Set([text, text.trim()])) {
        if (!where.has(key)) where.set(key, []);
        where.get(key).push(index);
      }
    });
    const taken = new Map();
    const lineOf = (entry) => {
      if (entry === null || typeof entry !== "object") return null;
      const text = origin.get(entry);
      const found = text === undefined ? undefined : where.get(text);
      if (!found) return null;
      const next = taken.get(text) ?? 0;
      taken.set(text, next + 1);
      return found[Math.min(next, found.length - 1)];
    };
    const report = { outcome: "loaded" };
    let manager;
    try {
      manager = sm.SessionManager.open(copy, dir);
    } catch (error) {
      const message = String(error?.message ?? error);
      report.outcome = /not a valid/.test(message) ? "refused" : "threw";
      report.error = message;
    }
    const after = existsSync(copy) ? readFileSync(copy) : Buffer.alloc(0);
    report.rewritten = !before.equals(after);
    report.lines_after = after.toString("utf8").split("\n").filter((line) => line.trim()).length;
    report.newline_added = report.rewritten && after.length === before.length + 1 && after[after.length - 1] === 10
      && after.subarray(0, before.length).equals(before);
    if (manager) {
      const entries = manager.fileEntries;
      const seen = new Map();
      report.kept_lines = entries.map((entry) => {
        const line = lineOf(entry);
        if (line !== null) seen.set(entry, line);
        return line;
      });
      const at = (entry) => (entry && seen.has(entry) ? seen.get(entry) : null);
      report.leaf_line = at(manager.getLeafEntry());
      parentPort.postMessage({ partial: { ...report, phase: "context" } });
      try {
        const branch = manager.getBranch();
        report.path_lines = branch.map(at);
        const context = manager.buildSessionContext().messages;
        report.context_roles = context.map((message) => message?.role ?? null);
        const sent = transform.transformMessages(messages.convertToLlm(context), model);
        // what the provider receives, byte for byte (a synthetic result's timestamp is the clock's, so left out)
        report.sent_json = JSON.stringify(sent.map((message) => (context.includes(message) ? message
          : { ...message, timestamp: 0 })));
        report.sent = sent.map((message) => ({
          role: message.role,
          synthetic: message.role === "toolResult" && !seen.has(message) && message.isError === true
            && Array.isArray(message.content) && message.content[0]?.text === "No result provided"
            && !context.includes(message),
        }));
      } catch (error) {
        report.context_error = String(error?.message ?? error);
      }
      parentPort.postMessage({ partial: { ...report, phase: "tree" } });
      try {
        report.tree_roots = manager.getTree().length;
      } catch (error) {
        report.tree_error = String(error?.message ?? error);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    parentPort.postMessage({ done: report });
  });
}

function startWorker(releaseDir, root) {
  const worker = new Worker(here, { workerData: { releaseDir, root } });
  const ready = new Promise((resolveReady, reject) => {
    worker.once("message", () => resolveReady());
    worker.once("error", reject);
  });
  return { worker, ready };
}

async function main() {
  const releaseDir = resolve(process.argv[2]);
  const files = JSON.parse(readFileSync(0, "utf8"));
  // Every file's temp dir is made in this one, removed at the end: a worker terminated in a hang leaves its own.
  const root = mkdtempSync(join(tmpdir(), "pi-oracle-"));
  try {
    await oracle(releaseDir, root, files);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function oracle(releaseDir, root, files) {
  let current = startWorker(releaseDir, root);
  await current.ready;
  for (const { path, timeoutMs } of files) {
    const result = await new Promise((resolveFile) => {
      let partial = null;
      const timer = setTimeout(() => {
        resolveFile({ ...(partial ?? { outcome: "hang" }), hang: partial ? partial.phase : "open" });
        current.worker.removeListener("message", onMessage);
        current.worker.terminate();
        current = null;
      }, timeoutMs ?? 2000);
      const onMessage = (message) => {
        if (message.partial) partial = message.partial;
        if (message.done) {
          clearTimeout(timer);
          current.worker.removeListener("message", onMessage);
          resolveFile(message.done);
        }
      };
      current.worker.on("message", onMessage);
      current.worker.postMessage({ path });
    });
    process.stdout.write(JSON.stringify({ path, ...result }) + "\n");
    if (current === null) {
      current = startWorker(releaseDir, root);
      await current.ready;
    }
  }
  await current.worker.terminate();
}

if (isMainThread) await main();
else await workerMain();
