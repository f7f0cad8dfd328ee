import { strict as assert } from "node:assert";
import { test } from "node:test";

import type { TreeNode, TreeResult } from "../src/protocol";
import { ViewNode, build, description, orphanReason, title } from "../src/treeModel";

/** Elyra nodes as payloads.tree sends them: children from the parents, in the order given. */
function elyra(pairs: Array<[number, number | null]>, extra: Pick<TreeResult, "leaf" | "active_path" | "roots"> = {}): TreeResult {
  const nodes: TreeNode[] = pairs.map(([line, parent]) => ({ line, parent, role: "user", title: `user: entry ${line}`, children: [] }));
  const byLine = new Map(nodes.map((n) => [n.line, n]));
  for (const n of nodes) if (n.parent !== null && n.parent !== undefined && n.parent !== n.line) byLine.get(n.parent)?.children!.push(n.line);
  return { format: "elyra", version: 3, label: "Elyra v3", entry_count: nodes.length, nodes, ...extra };
}

function shape(nodes: ViewNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.entry.line]: shape(n.children) } : n.entry.line));
}

test("a linear session is one flat level", () => {
  const model = build(elyra([[1, null], [2, 1], [3, 2], [4, 3]], { leaf: 4, active_path: [1, 2, 3, 4], roots: [1] }));
  assert.deepEqual(shape(model.roots), [1, 2, 3, 4]);
  assert.ok([1, 2, 3, 4].every((line) => model.byLine.get(line)!.onActivePath));
  assert.equal(model.byLine.get(4)!.leaf, true);
});

test("a branch point nests one head per branch, in the server's order (active first)", () => {
  // 1 - 2 - 3 - 4        (abandoned)
  //      \- 5 - 6        (active)
  const tree = elyra([[1, null], [2, 1], [3, 2], [4, 3], [5, 2], [6, 5]], { leaf: 6, active_path: [1, 2, 5, 6], roots: [1] });
  tree.nodes!.find((n) => n.line === 2)!.children = [5, 3];
  const model = build(tree);
  assert.deepEqual(shape(model.roots), [1, { 2: [{ 5: [6] }, { 3: [4] }] }]);
  const point = model.byLine.get(2)!;
  assert.equal(point.branchPoint, true);
  assert.match(description(point), /2 branches/);
  assert.equal(model.byLine.get(3)!.onActivePath, false);
  assert.equal(model.byLine.get(5)!.onActivePath, true);
  assert.equal(model.byLine.get(6)!.parent, model.byLine.get(5));
});

test("several roots each become a head; entries on a parent loop are still listed", () => {
  // 4 and 5 point at each other: no root reaches them
  const tree = elyra([[1, null], [2, 1], [3, null], [4, 5], [5, 4]]);
  const model = build(tree);
  assert.deepEqual(shape(model.roots), [{ 1: [2] }, 3, { 4: [5] }]);
  assert.equal(model.byLine.get(4)!.unreachable, true);
  assert.match(description(model.byLine.get(4)!), /parentId loop/);
});

test("thndrs turns hold their records; the cursor maps to the record", () => {
  const model = build({
    format: "thndrs",
    version: 1,
    label: "thndrs",
    entry_count: 3,
    nodes: [
      { kind: "record", line: 0, type: "session_meta", title: "session_meta" },
      { kind: "turn", id: "turn-1", line: 1, title: "user: hello", settled: false, records: [{ line: 1, type: "user", title: "user: hello" }, { line: 2, type: "tool_started", title: "bash" }] },
    ],
  });
  assert.deepEqual(shape(model.roots), [0, { 1: [1, 2] }]);
  assert.equal(model.byLine.get(2)!.parent, model.roots[1]);
  assert.equal(model.byLine.get(1)!.entry.kind, "record");
  assert.equal(description(model.roots[1]), "2 records  not settled  line 2");
});

test("a 100,000-entry chain and a 20,000-deep comb build without recursion", () => {
  const chain: Array<[number, number | null]> = Array.from({ length: 100_000 }, (_, i) => [i + 1, i === 0 ? null : i]);
  const linear = build(elyra(chain, { leaf: 100_000 }));
  assert.equal(linear.roots.length, 100_000);
  // every spine entry has a side branch: nesting depth grows with each branch point
  const comb: Array<[number, number | null]> = [[0, null]];
  for (let i = 1; i <= 20_000; i++) comb.push([2 * i - 1, i === 1 ? 0 : 2 * i - 3], [2 * i, i === 1 ? 0 : 2 * i - 3]);
  const deep = build(elyra(comb));
  assert.equal(deep.byLine.size, comb.length);
});

test("titles are the server's, on one line; labels and the leaf show in the description", () => {
  const model = build({ format: "elyra", version: 3, label: "Elyra v3", entry_count: 1, nodes: [{ line: 0, parent: null, title: "user: fix the\n  parser  please", label: "start", children: [] }], leaf: 0 });
  const only = model.byLine.get(0)!;
  assert.equal(title(only.entry), "user: fix the parser please");
  assert.equal(description(only), "🏷 start  ● active leaf  line 1");
  assert.equal(title({ line: 3, parent: null, type: "model_change", title: "" }), "model_change");
});

test("an orphan root (its parentId names no entry) says why; a root with parentId null does not", () => {
  const tree = elyra([[1, null], [2, 1], [5, 99], [6, 5]], { leaf: 2, active_path: [1, 2], roots: [1, 5] });
  tree.nodes!.find((n) => n.line === 5)!.orphan = "its parentId 'deadbeef' names no entry in this file";
  const model = build(tree);
  assert.deepEqual(shape(model.roots), [{ 1: [2] }, { 5: [6] }]);
  assert.equal(orphanReason(model.byLine.get(5)!.entry), "its parentId 'deadbeef' names no entry in this file");
  assert.equal(description(model.byLine.get(5)!), "⚠ orphan: its parentId 'deadbeef' names no entry in this file  line 6");
  for (const line of [1, 2, 6]) {
    assert.equal(orphanReason(model.byLine.get(line)!.entry), undefined);
    assert.doesNotMatch(description(model.byLine.get(line)!), /orphan/);
  }
  // Any JSON value may arrive: only a non-empty string is a reason.
  assert.equal(orphanReason({ line: 0, title: "", orphan: null }), undefined);
  assert.equal(orphanReason({ line: 0, title: "", orphan: "" }), undefined);
  assert.equal(orphanReason({ line: 0, title: "", orphan: 3 as unknown as string }), undefined);
});
