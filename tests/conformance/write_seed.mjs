// Writes a session with pi 1.6's own SessionManager (the code pi runs), to be a seed of the conformance suite:
// system messages, tool calls, `context_edit` entries (one omitting a message, one replacing a result's content,
// a later one overriding an earlier edit of the same target), a `usage` entry and a branch.
// Usage: node22 write_seed.mjs OUT_DIR   (prints the path of the file pi wrote)
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const outDir = resolve(process.argv[2]);
const here = new URL(".", import.meta.url).pathname;
const { SessionManager } = await import(pathToFileURL(join(here, "node_modules/pi16/dist/core/session-manager.js")).href);

let clock = Date.parse("2026-11-20T10:00:00.000Z");
const realNow = Date.now;
Date.now = () => (clock += 1000);
const usage = { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0, totalTokens: 1280,
                cost: { input: 0.0036, output: 0.0012, cacheRead: 0, cacheWrite: 0, total: 0.0048 } };
const assistant = (content, stopReason = "stop") => ({
  role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5",
  usage, stopReason, timestamp: Date.now(),
});

const session = SessionManager.create("/home/dev/project", outDir);
session.appendMessage({ role: "system", content: "You are pi, a coding agent.", sections: { "<tools>": "bash, read" },
                        toolsAdded: [{ name: "bash", description: "Run a shell command", parameters: { type: "object" } }],
                        timestamp: Date.now() });
const ask = session.appendMessage({ role: "user", content: "List the files, then read README.md", timestamp: Date.now() });
session.appendMessage(assistant([{ type: "text", text: "Listing." },
                                 { type: "toolCall", id: "toolu_01", name: "bash", arguments: { command: "ls" } }], "toolUse"));
const listing = session.appendMessage({ role: "toolResult", toolCallId: "toolu_01", toolName: "bash",
                                        content: [{ type: "text", text: "README.md\nsrc\n".repeat(40) }], isError: false,
                                        timestamp: Date.now() });
const chatter = session.appendMessage(assistant([{ type: "text", text: "There are many files; let me read README.md." }]));
session.appendUsage("cache_warm", "anthropic", "claude-sonnet-4-5", usage, "prompt cache kept warm");
session.appendContextEdit(listing, { content: [{ type: "text", text: "(long listing elided)" }] });
session.appendContextEdit(chatter, null);
session.appendMessage({ role: "user", content: "Thanks. Now summarise it.", timestamp: Date.now() });
session.appendContextEdit(listing, { content: "README.md, src (40 times)" });
const branchPoint = session.appendMessage(assistant([{ type: "text", text: "README.md describes the project." }]));
session.appendMessage({ role: "system", content: "Be brief.", sections: { "<tools>": null }, timestamp: Date.now() });
session.appendMessage({ role: "user", content: "Shorter, please.", timestamp: Date.now() });
session.appendMessage(assistant([{ type: "text", text: "A project." }]));
session.branch(branchPoint);
session.appendMessage({ role: "user", content: "What is in src?", timestamp: Date.now() });
session.appendContextEdit(ask, { content: "List the files" });
session.appendMessage(assistant([{ type: "text", text: "Source files." }]));
Date.now = realNow;
console.log(session.getSessionFile());
