"use strict";

// test/treeModel.test.ts
var import_node_assert = require("node:assert");
var import_node_test = require("node:test");

// src/treeModel.ts
function flatten(result) {
  if (result.nodes) return result.nodes;
  const flat = [];
  const stack = (result.roots ?? []).map((node2) => ({ node: node2, parent: null })).reverse();
  while (stack.length > 0) {
    const { node: node2, parent } = stack.pop();
    flat.push({ ...node2, parent: node2.parent ?? parent, children: void 0 });
    for (const child of [...node2.children ?? []].reverse()) stack.push({ node: child, parent: node2.line });
  }
  return flat.sort((a, b) => a.line - b.line);
}
function build(result) {
  const entries = flatten(result);
  const byEntryLine = /* @__PURE__ */ new Map();
  for (const entry of entries) byEntryLine.set(entry.line, entry);
  const children = /* @__PURE__ */ new Map();
  const roots = [];
  for (const entry of entries) {
    const parent = entry.parent;
    if (parent === null || parent === void 0 || parent === entry.line || !byEntryLine.has(parent)) {
      roots.push(entry);
    } else {
      const list = children.get(parent);
      if (list) list.push(entry);
      else children.set(parent, [entry]);
    }
  }
  const leafLine = result.leaf?.line ?? entries.find((entry) => entry.active)?.line;
  const active = /* @__PURE__ */ new Set();
  for (let line = leafLine; line !== void 0 && line !== null && !active.has(line); ) {
    active.add(line);
    const entry = byEntryLine.get(line);
    line = entry?.parent ?? void 0;
  }
  const byLine = /* @__PURE__ */ new Map();
  const make = (entry, parent, head) => {
    const node2 = {
      entry,
      parent,
      children: [],
      head,
      branchPoint: (children.get(entry.line)?.length ?? 0) > 1,
      onActivePath: active.has(entry.line),
      leaf: entry.line === leafLine
    };
    byLine.set(entry.line, node2);
    (parent ? parent.children : top).push(node2);
    return node2;
  };
  const top = [];
  const work = [];
  const single = roots.length === 1;
  for (const root of [...roots].reverse()) work.push({ entry: root, container: void 0, head: !single });
  while (work.length > 0) {
    const item = work.pop();
    let entry = item.entry;
    let container = item.container;
    let head = item.head;
    while (entry && !byLine.has(entry.line)) {
      const node2 = make(entry, container, head);
      const next = children.get(entry.line) ?? [];
      if (head) container = node2;
      head = false;
      if (next.length === 1) {
        entry = next[0];
        continue;
      }
      for (const child of [...next].reverse()) work.push({ entry: child, container: node2, head: true });
      entry = void 0;
    }
  }
  return { roots: top, byLine, leafLine: leafLine ?? void 0 };
}
function title(entry) {
  const kind = entry.role ?? entry.type ?? "entry";
  const text = (entry.text ?? "").replace(/\s+/g, " ").trim();
  return text ? `${kind}: ${text}` : kind;
}
function description(node2) {
  const parts = [];
  if (node2.entry.label) parts.push(`\u{1F3F7} ${node2.entry.label}`);
  if (node2.branchPoint) parts.push(`\u2442 ${node2.children.filter((child) => child.head).length} branches`);
  if (node2.leaf) parts.push("\u25CF active leaf");
  parts.push(`line ${node2.entry.line + 1}`);
  return parts.join("  ");
}

// test/treeModel.test.ts
var node = (line, parent, text = `entry ${line}`, extra = {}) => ({ line, parent, role: "user", text, ...extra });
function shape(nodes) {
  return nodes.map((n) => n.children.length ? { [n.entry.line]: shape(n.children) } : n.entry.line);
}
(0, import_node_test.test)("a linear session is one flat level", () => {
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, 2), node(4, 3)], leaf: { line: 4 } });
  import_node_assert.strict.deepEqual(shape(model.roots), [1, 2, 3, 4]);
  import_node_assert.strict.ok([1, 2, 3, 4].every((line) => model.byLine.get(line).onActivePath));
  import_node_assert.strict.equal(model.byLine.get(4).leaf, true);
});
(0, import_node_test.test)("a branch point nests one head per branch, each with its own chain", () => {
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, 2), node(4, 3), node(5, 2), node(6, 5)], leaf: { line: 6 } });
  import_node_assert.strict.deepEqual(shape(model.roots), [1, { 2: [{ 3: [4] }, { 5: [6] }] }]);
  const point = model.byLine.get(2);
  import_node_assert.strict.equal(point.branchPoint, true);
  import_node_assert.strict.match(description(point), /2 branches/);
  import_node_assert.strict.equal(model.byLine.get(3).onActivePath, false);
  import_node_assert.strict.equal(model.byLine.get(5).onActivePath, true);
  import_node_assert.strict.equal(model.byLine.get(6).parent, model.byLine.get(5));
});
(0, import_node_test.test)("several roots and orphans (missing or self parents) each become a head", () => {
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, null), node(4, 99), node(5, 5)] });
  import_node_assert.strict.deepEqual(shape(model.roots), [{ 1: [2] }, 3, 4, 5]);
});
(0, import_node_test.test)("a nested `roots` payload is flattened the same way", () => {
  const nested = { roots: [{ line: 1, parent: null, children: [{ line: 2, parent: 1, children: [{ line: 3, parent: 2 }, { line: 4, parent: 2 }] }] }], leaf: { line: 4 } };
  import_node_assert.strict.deepEqual(shape(build(nested).roots), [1, { 2: [3, 4] }]);
});
(0, import_node_test.test)("a 100,000-entry chain and a 20,000-deep comb build without recursion", () => {
  const chain = Array.from({ length: 1e5 }, (_, i) => node(i + 1, i === 0 ? null : i));
  const linear = build({ nodes: chain, leaf: { line: 1e5 } });
  import_node_assert.strict.equal(linear.roots.length, 1e5);
  import_node_assert.strict.equal(linear.byLine.get(1).onActivePath, true);
  const comb = [node(0, null)];
  for (let i = 1; i <= 2e4; i++) comb.push(node(2 * i - 1, 2 * i - 3 < 0 ? 0 : 2 * i - 3), node(2 * i, 2 * i - 3 < 0 ? 0 : 2 * i - 3));
  const deep = build({ nodes: comb });
  import_node_assert.strict.equal(deep.byLine.size, comb.length);
});
(0, import_node_test.test)("titles show the role and the first words on one line; labels and the leaf show in the description", () => {
  const model = build({ nodes: [node(0, null, "fix the\n  parser  please", { label: "start" })], leaf: { line: 0 } });
  const only = model.byLine.get(0);
  import_node_assert.strict.equal(title(only.entry), "user: fix the parser please");
  import_node_assert.strict.equal(description(only), "\u{1F3F7} start  \u25CF active leaf  line 1");
  import_node_assert.strict.equal(title({ line: 3, parent: null, type: "model_change" }), "model_change");
});
