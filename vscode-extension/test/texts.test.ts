import { strict as assert } from "node:assert";
import { test } from "node:test";

import { contextText } from "../src/contextText";
import { formatName, statusText } from "../src/statusText";

test("status: format label, entries, counts", () => {
  assert.equal(statusText({ format: "elyra", version: 3, label: "Elyra v3", entry_count: 1234, nodes: [] }, 2, 1), "$(list-tree) Elyra v3 · 1,234 entries · $(error) 2 $(warning) 1");
  assert.equal(statusText({ format: "thndrs", version: null, label: "", entry_count: 1, nodes: [] }, 0, 0), "$(list-tree) thndrs · 1 entry · $(error) 0 $(warning) 0");
  assert.equal(formatName(undefined), "session");
  assert.equal(formatName({ format: "elyra", version: 2, label: "", entry_count: 0, nodes: [] }), "elyra v2");
});

test("context: numbered messages with their lines and notes", () => {
  const text = contextText(
    { format: "elyra", version: 3, label: "Elyra v3", leaf: 4, messages: [{ role: "user", text: "hi", line: 1, note: "" }, { role: "user", text: "earlier work", line: 3, note: "compaction summary" }] },
    "s.jsonl",
    4,
  );
  assert.equal(
    text,
    "Model context from line 5 of s.jsonl (Elyra v3)\n2 messages, in the order the agent sends them.\n\n" +
      "── 1. user (line 2) ──\nhi\n\n── 2. user (line 4) [compaction summary] ──\nearlier work\n",
  );
});

test("context: a line that is not an entry says whose context it is", () => {
  const text = contextText({ format: "elyra", version: 3, label: "", leaf: 7, messages: [] }, "s.jsonl", 0);
  assert.match(text, /Line 1 is not an entry; this is the context from the active leaf, line 8\./);
  assert.match(text, /Nothing is sent from here\./);
});

test("context: a walk cut short at a broken link says the context starts mid-conversation", () => {
  const cut = "pi's walk from the leaf stops at the entry on line 3: its parentId 'gone' names no entry in this file";
  const text = contextText({ format: "elyra", version: 3, label: "", leaf: 2, messages: [], cut_short: cut }, "s.jsonl", 2);
  assert.match(text, /Mid-conversation: pi's walk from the leaf stops at the entry on line 3: its parentId 'gone' names no entry in this file\./);
});

test("context: a rollout Codex refuses to resume says so, with Codex's error", () => {
  const refused = "rollout at /s/rollout.jsonl does not start with session metadata";
  const text = contextText({ format: "codex", version: null, label: "Codex", leaf: null, messages: [], refused }, "rollout.jsonl", 0);
  assert.match(text, /The agent refuses to resume this file: rollout at \/s\/rollout\.jsonl does not start with session metadata\. Nothing is sent\./);
  assert.doesNotMatch(text, /Nothing is sent from here/);
});
