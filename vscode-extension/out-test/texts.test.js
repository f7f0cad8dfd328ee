"use strict";

// test/texts.test.ts
var import_node_assert = require("node:assert");
var import_node_test = require("node:test");

// src/contextText.ts
function contextText(result, fileName, line) {
  const header = [
    `Model context from line ${line + 1} of ${fileName}`,
    `${result.messages.length} message${result.messages.length === 1 ? "" : "s"}, in the order the agent sends them.`
  ];
  const extras = Object.entries(result).filter(([key, value]) => key !== "messages" && key !== "line" && value !== null && typeof value !== "object");
  for (const [key, value] of extras) header.push(`${key}: ${String(value)}`);
  const blocks = result.messages.map((message, index) => {
    const where = message.line === null || message.line === void 0 ? "" : ` (line ${message.line + 1})`;
    return `\u2500\u2500 ${index + 1}. ${message.role}${where} \u2500\u2500
${message.text}`;
  });
  return [header.join("\n"), ...blocks].join("\n\n") + "\n";
}

// src/statusText.ts
var FORMAT_NAMES = { elyra: "Elyra", thndrs: "thndrs", plain: "not a session" };
function formatName(tree) {
  if (!tree?.format) return "session";
  const name = FORMAT_NAMES[tree.format] ?? tree.format;
  return tree.version !== void 0 && tree.version !== null && tree.format !== "plain" ? `${name} v${tree.version}` : name;
}
function statusText(tree, errors, warnings) {
  const parts = [`$(list-tree) ${formatName(tree)}`];
  const entries = tree?.entries ?? tree?.nodes?.length;
  if (entries !== void 0) parts.push(`${entries.toLocaleString("en-US")} ${entries === 1 ? "entry" : "entries"}`);
  parts.push(`$(error) ${errors} $(warning) ${warnings}`);
  return parts.join(" \xB7 ");
}

// test/texts.test.ts
(0, import_node_test.test)("status: format with version, entries, counts", () => {
  import_node_assert.strict.equal(statusText({ format: "elyra", version: 3, entries: 1234 }, 2, 1), "$(list-tree) Elyra v3 \xB7 1,234 entries \xB7 $(error) 2 $(warning) 1");
  import_node_assert.strict.equal(statusText({ format: "thndrs", entries: 1 }, 0, 0), "$(list-tree) thndrs \xB7 1 entry \xB7 $(error) 0 $(warning) 0");
  import_node_assert.strict.equal(formatName(void 0), "session");
  import_node_assert.strict.equal(formatName({ format: "plain", version: 1 }), "not a session");
});
(0, import_node_test.test)("context: numbered messages with their lines, scalars of the payload in the header", () => {
  const text = contextText(
    { messages: [{ role: "user", text: "hi", line: 1 }, { role: "compactionSummary", text: "earlier work", line: null }], model: "claude", thinkingLevel: "high" },
    "s.jsonl",
    4
  );
  import_node_assert.strict.equal(
    text,
    "Model context from line 5 of s.jsonl\n2 messages, in the order the agent sends them.\nmodel: claude\nthinkingLevel: high\n\n\u2500\u2500 1. user (line 2) \u2500\u2500\nhi\n\n\u2500\u2500 2. compactionSummary \u2500\u2500\nearlier work\n"
  );
});
