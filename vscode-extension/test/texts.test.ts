import { strict as assert } from "node:assert";
import { test } from "node:test";

import { contextText } from "../src/contextText";
import { formatName, statusText } from "../src/statusText";

test("status: format with version, entries, counts", () => {
  assert.equal(statusText({ format: "elyra", version: 3, entries: 1234 }, 2, 1), "$(list-tree) Elyra v3 · 1,234 entries · $(error) 2 $(warning) 1");
  assert.equal(statusText({ format: "thndrs", entries: 1 }, 0, 0), "$(list-tree) thndrs · 1 entry · $(error) 0 $(warning) 0");
  assert.equal(formatName(undefined), "session");
  assert.equal(formatName({ format: "plain", version: 1 }), "not a session");
});

test("context: numbered messages with their lines, scalars of the payload in the header", () => {
  const text = contextText(
    { messages: [{ role: "user", text: "hi", line: 1 }, { role: "compactionSummary", text: "earlier work", line: null }], model: "claude", thinkingLevel: "high" },
    "s.jsonl",
    4,
  );
  assert.equal(
    text,
    "Model context from line 5 of s.jsonl\n2 messages, in the order the agent sends them.\nmodel: claude\nthinkingLevel: high\n\n" +
      "── 1. user (line 2) ──\nhi\n\n── 2. compactionSummary ──\nearlier work\n",
  );
});
