// The real pi's SessionManager, for the side-by-side benchmark (pi_side_by_side.py).
//   node pi_session.mjs write RELEASE_DIR SOURCE OUT   replay SOURCE (an Elyra v3 file) through pi's own append
//                                                      API, so that pi writes every line of OUT itself
//   node pi_session.mjs load RELEASE_DIR FILE          what pi does on resume: SessionManager.open, then
//                                                      buildSessionContext; prints entry and message counts
// RELEASE_DIR is a release under tests/conformance/node_modules (pi16 runs on its node22 binary).
import { createReadStream, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const [mode, releaseDir, ...rest] = process.argv.slice(2);
const { SessionManager } = await import(pathToFileURL(join(resolve(releaseDir), "dist/core/session-manager.js")).href);

async function write(source, out) {
  const dir = mkdtempSync(join(tmpdir(), "pi-write-"));
  const manager = SessionManager.create("/home/dev/project", dir);
  const ids = new Map(); // the source's ids -> the ids pi gave the same entries
  const lines = createInterface({ input: createReadStream(source), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const entry = JSON.parse(line);
    if (entry.type === "session") continue;
    const parent = entry.parentId === null ? null : ids.get(entry.parentId);
    if (entry.type === "branch_summary") {
      ids.set(entry.id, manager.branchWithSummary(parent, entry.summary, entry.details));
      continue;
    }
    if (parent !== manager.getLeafId()) manager.branch(parent);
    let id;
    switch (entry.type) {
      case "message": id = manager.appendMessage(entry.message); break;
      case "model_change": id = manager.appendModelChange(entry.provider, entry.modelId); break;
      case "thinking_level_change": id = manager.appendThinkingLevelChange(entry.thinkingLevel); break;
      case "session_info": id = manager.appendSessionInfo(entry.name); break;
      case "label": id = manager.appendLabelChange(ids.get(entry.targetId), entry.label); break;
      case "compaction":
        id = manager.appendCompaction(entry.summary, ids.get(entry.firstKeptEntryId), entry.tokensBefore,
          entry.details);
        break;
      default: throw new Error(`no pi API writes an entry of type ${entry.type}`);
    }
    ids.set(entry.id, id);
  }
  renameSync(manager.getSessionFile(), out);
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ entries: manager.getEntryCount?.() ?? ids.size }));
}

function load(file) {
  const dir = mkdtempSync(join(tmpdir(), "pi-load-"));
  const manager = SessionManager.open(file, dir);
  const context = manager.buildSessionContext();
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ entries: manager.getEntries().length, messages: context.messages.length }));
}

if (mode === "write") await write(...rest);
else if (mode === "load") load(...rest);
else throw new Error(`unknown mode ${mode}: write or load`);
