"use strict";

// test/texts.test.ts
var import_node_assert = require("node:assert");
var import_node_test = require("node:test");

// src/contextText.ts
function contextText(result, fileName, line) {
  const count = result.messages.length;
  const header = [`Model context from line ${line + 1} of ${fileName}${result.label ? ` (${result.label})` : ""}`];
  if (typeof result.leaf === "number" && result.leaf !== line) header.push(`Line ${line + 1} is not an entry; this is the context from the active leaf, line ${result.leaf + 1}.`);
  if (result.turn_id) header.push(`Turn ${result.turn_id}.`);
  header.push(count === 0 ? "Nothing is sent from here." : `${count} message${count === 1 ? "" : "s"}, in the order the agent sends them.`);
  const blocks = result.messages.map((message, index) => {
    const where = typeof message.line === "number" ? ` (line ${message.line + 1})` : "";
    const note = message.note ? ` [${message.note}]` : "";
    return `\u2500\u2500 ${index + 1}. ${message.role}${where}${note} \u2500\u2500
${message.text}`;
  });
  return [header.join("\n"), ...blocks].join("\n\n") + "\n";
}

// src/statusText.ts
function formatName(tree) {
  if (!tree) return "session";
  if (tree.label) return tree.label;
  if (!tree.format) return "session";
  return tree.version !== void 0 && tree.version !== null ? `${tree.format} v${tree.version}` : tree.format;
}
function statusText(tree, errors, warnings) {
  const parts = [`$(list-tree) ${formatName(tree)}`];
  const entries = tree?.entry_count ?? tree?.nodes?.length;
  if (entries !== void 0) parts.push(`${entries.toLocaleString("en-US")} ${entries === 1 ? "entry" : "entries"}`);
  parts.push(`$(error) ${errors} $(warning) ${warnings}`);
  return parts.join(" \xB7 ");
}

// test/texts.test.ts
(0, import_node_test.test)("status: format label, entries, counts", () => {
  import_node_assert.strict.equal(statusText({ label: "Elyra v3", entry_count: 1234 }, 2, 1), "$(list-tree) Elyra v3 \xB7 1,234 entries \xB7 $(error) 2 $(warning) 1");
  import_node_assert.strict.equal(statusText({ format: "thndrs", entry_count: 1 }, 0, 0), "$(list-tree) thndrs \xB7 1 entry \xB7 $(error) 0 $(warning) 0");
  import_node_assert.strict.equal(formatName(void 0), "session");
  import_node_assert.strict.equal(formatName({ format: "elyra", version: 2 }), "elyra v2");
});
(0, import_node_test.test)("context: numbered messages with their lines and notes", () => {
  const text = contextText(
    { label: "Elyra v3", leaf: 4, messages: [{ role: "user", text: "hi", line: 1, note: "" }, { role: "user", text: "earlier work", line: 3, note: "compaction summary" }] },
    "s.jsonl",
    4
  );
  import_node_assert.strict.equal(
    text,
    "Model context from line 5 of s.jsonl (Elyra v3)\n2 messages, in the order the agent sends them.\n\n\u2500\u2500 1. user (line 2) \u2500\u2500\nhi\n\n\u2500\u2500 2. user (line 4) [compaction summary] \u2500\u2500\nearlier work\n"
  );
});
(0, import_node_test.test)("context: a line that is not an entry says whose context it is", () => {
  const text = contextText({ leaf: 7, messages: [] }, "s.jsonl", 0);
  import_node_assert.strict.match(text, /Line 1 is not an entry; this is the context from the active leaf, line 8\./);
  import_node_assert.strict.match(text, /Nothing is sent from here\./);
});
