"use strict";

// test/treeModel.test.ts
var import_node_assert = require("node:assert");
var import_node_test = require("node:test");

// src/treeModel.ts
function node(entry, parent, head) {
  return { entry, parent, children: [], head, branchPoint: false, onActivePath: false, leaf: false, unreachable: false };
}
function build(result) {
  const nodes = result.nodes ?? [];
  return nodes.some((entry) => entry.kind === "turn" || entry.kind === "record") ? buildTurns(nodes) : buildEntries(result, nodes);
}
function buildTurns(nodes) {
  const roots = [];
  const byLine = /* @__PURE__ */ new Map();
  for (const entry of nodes) {
    const top = node(entry, void 0, entry.kind === "turn");
    roots.push(top);
    if (!byLine.has(entry.line)) byLine.set(entry.line, top);
    if (entry.kind !== "turn") continue;
    for (const record of entry.records ?? []) {
      const child = node({ line: record.line, type: record.type, title: record.title, kind: "record" }, top, false);
      top.children.push(child);
      byLine.set(record.line, child);
    }
  }
  return { roots, byLine, leafLine: void 0 };
}
function buildEntries(result, entries) {
  const byEntryLine = /* @__PURE__ */ new Map();
  for (const entry of entries) byEntryLine.set(entry.line, entry);
  const childrenOf = (entry) => {
    const lines = entry.children ?? [];
    return lines.map((line) => byEntryLine.get(line)).filter((child) => child !== void 0 && child.line !== entry.line);
  };
  const isRoot = (entry) => entry.parent === null || entry.parent === void 0 || entry.parent === entry.line || !byEntryLine.has(entry.parent);
  const rootEntries = result.roots ? result.roots.map((line) => byEntryLine.get(line)).filter((entry) => entry !== void 0) : entries.filter(isRoot);
  const leafLine = typeof result.leaf === "number" ? result.leaf : entries.find((entry) => entry.is_leaf)?.line;
  const active = new Set(result.active_path ?? entries.filter((entry) => entry.on_active_path).map((entry) => entry.line));
  const byLine = /* @__PURE__ */ new Map();
  const top = [];
  const make = (entry, container, head) => {
    const view = node(entry, container, head);
    view.branchPoint = childrenOf(entry).length > 1;
    view.onActivePath = active.has(entry.line);
    view.leaf = entry.line === leafLine;
    byLine.set(entry.line, view);
    (container ? container.children : top).push(view);
    return view;
  };
  const work = [];
  const layOut = (starts, head) => {
    for (const entry of [...starts].reverse()) work.push({ entry, container: void 0, head });
    while (work.length > 0) {
      const item = work.pop();
      let entry = item.entry;
      let container = item.container;
      let isHead = item.head;
      while (entry && !byLine.has(entry.line)) {
        const view = make(entry, container, isHead);
        const next = childrenOf(entry);
        if (isHead) container = view;
        isHead = false;
        if (next.length === 1) {
          entry = next[0];
          continue;
        }
        for (const child of [...next].reverse()) work.push({ entry: child, container: view, head: true });
        entry = void 0;
      }
    }
  };
  layOut(rootEntries, rootEntries.length !== 1);
  const unreached = entries.filter((entry) => !byLine.has(entry.line));
  layOut(unreached, true);
  for (const entry of unreached) {
    const view = byLine.get(entry.line);
    if (view) view.unreachable = true;
  }
  return { roots: top, byLine, leafLine };
}
function title(entry) {
  const text = (entry.title ?? "").replace(/\s+/g, " ").trim();
  return text || entry.role || entry.type || (entry.kind === "turn" ? `turn ${entry.id ?? ""}`.trim() : "entry");
}
function description(view) {
  const parts = [];
  if (view.entry.label) parts.push(`\u{1F3F7} ${view.entry.label}`);
  if (view.branchPoint) parts.push(`\u2442 ${view.children.filter((child) => child.head).length} branches`);
  if (view.leaf) parts.push("\u25CF active leaf");
  if (view.unreachable) parts.push("\u27F2 on a parentId loop");
  if (view.entry.kind === "turn") {
    parts.push(`${view.children.length} records`);
    if (view.entry.settled === false) parts.push("not settled");
  }
  parts.push(`line ${view.entry.line + 1}`);
  return parts.join("  ");
}

// test/treeModel.test.ts
function elyra(pairs, extra = {}) {
  const nodes = pairs.map(([line, parent]) => ({ line, parent, role: "user", title: `user: entry ${line}`, children: [] }));
  const byLine = new Map(nodes.map((n) => [n.line, n]));
  for (const n of nodes) if (n.parent !== null && n.parent !== void 0 && n.parent !== n.line) byLine.get(n.parent)?.children.push(n.line);
  return { format: "elyra", nodes, ...extra };
}
function shape(nodes) {
  return nodes.map((n) => n.children.length ? { [n.entry.line]: shape(n.children) } : n.entry.line);
}
(0, import_node_test.test)("a linear session is one flat level", () => {
  const model = build(elyra([[1, null], [2, 1], [3, 2], [4, 3]], { leaf: 4, active_path: [1, 2, 3, 4], roots: [1] }));
  import_node_assert.strict.deepEqual(shape(model.roots), [1, 2, 3, 4]);
  import_node_assert.strict.ok([1, 2, 3, 4].every((line) => model.byLine.get(line).onActivePath));
  import_node_assert.strict.equal(model.byLine.get(4).leaf, true);
});
(0, import_node_test.test)("a branch point nests one head per branch, in the server's order (active first)", () => {
  const tree = elyra([[1, null], [2, 1], [3, 2], [4, 3], [5, 2], [6, 5]], { leaf: 6, active_path: [1, 2, 5, 6], roots: [1] });
  tree.nodes.find((n) => n.line === 2).children = [5, 3];
  const model = build(tree);
  import_node_assert.strict.deepEqual(shape(model.roots), [1, { 2: [{ 5: [6] }, { 3: [4] }] }]);
  const point = model.byLine.get(2);
  import_node_assert.strict.equal(point.branchPoint, true);
  import_node_assert.strict.match(description(point), /2 branches/);
  import_node_assert.strict.equal(model.byLine.get(3).onActivePath, false);
  import_node_assert.strict.equal(model.byLine.get(5).onActivePath, true);
  import_node_assert.strict.equal(model.byLine.get(6).parent, model.byLine.get(5));
});
(0, import_node_test.test)("several roots each become a head; entries on a parent loop are still listed", () => {
  const tree = elyra([[1, null], [2, 1], [3, null], [4, 5], [5, 4]]);
  const model = build(tree);
  import_node_assert.strict.deepEqual(shape(model.roots), [{ 1: [2] }, 3, { 4: [5] }]);
  import_node_assert.strict.equal(model.byLine.get(4).unreachable, true);
  import_node_assert.strict.match(description(model.byLine.get(4)), /parentId loop/);
});
(0, import_node_test.test)("thndrs turns hold their records; the cursor maps to the record", () => {
  const model = build({
    format: "thndrs",
    nodes: [
      { kind: "record", line: 0, type: "session_meta", title: "session_meta" },
      { kind: "turn", id: "turn-1", line: 1, title: "user: hello", settled: false, records: [{ line: 1, type: "user", title: "user: hello" }, { line: 2, type: "tool_started", title: "bash" }] }
    ]
  });
  import_node_assert.strict.deepEqual(shape(model.roots), [0, { 1: [1, 2] }]);
  import_node_assert.strict.equal(model.byLine.get(2).parent, model.roots[1]);
  import_node_assert.strict.equal(model.byLine.get(1).entry.kind, "record");
  import_node_assert.strict.equal(description(model.roots[1]), "2 records  not settled  line 2");
});
(0, import_node_test.test)("a 100,000-entry chain and a 20,000-deep comb build without recursion", () => {
  const chain = Array.from({ length: 1e5 }, (_, i) => [i + 1, i === 0 ? null : i]);
  const linear = build(elyra(chain, { leaf: 1e5 }));
  import_node_assert.strict.equal(linear.roots.length, 1e5);
  const comb = [[0, null]];
  for (let i = 1; i <= 2e4; i++) comb.push([2 * i - 1, i === 1 ? 0 : 2 * i - 3], [2 * i, i === 1 ? 0 : 2 * i - 3]);
  const deep = build(elyra(comb));
  import_node_assert.strict.equal(deep.byLine.size, comb.length);
});
(0, import_node_test.test)("titles are the server's, on one line; labels and the leaf show in the description", () => {
  const model = build({ nodes: [{ line: 0, parent: null, title: "user: fix the\n  parser  please", label: "start", children: [] }], leaf: 0 });
  const only = model.byLine.get(0);
  import_node_assert.strict.equal(title(only.entry), "user: fix the parser please");
  import_node_assert.strict.equal(description(only), "\u{1F3F7} start  \u25CF active leaf  line 1");
  import_node_assert.strict.equal(title({ line: 3, parent: null, type: "model_change" }), "model_change");
});
