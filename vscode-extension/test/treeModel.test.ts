import { strict as assert } from "node:assert";
import { test } from "node:test";

import type { TreeNode, TreeResult } from "../src/protocol";
import { ViewNode, build, description, title } from "../src/treeModel";

const node = (line: number, parent: number | null, text = `entry ${line}`, extra: Partial<TreeNode> = {}): TreeNode => ({ line, parent, role: "user", text, ...extra });

function shape(nodes: ViewNode[]): unknown[] {
  return nodes.map((n) => (n.children.length ? { [n.entry.line]: shape(n.children) } : n.entry.line));
}

test("a linear session is one flat level", () => {
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, 2), node(4, 3)], leaf: { line: 4 } });
  assert.deepEqual(shape(model.roots), [1, 2, 3, 4]);
  assert.ok([1, 2, 3, 4].every((line) => model.byLine.get(line)!.onActivePath));
  assert.equal(model.byLine.get(4)!.leaf, true);
});

test("a branch point nests one head per branch, each with its own chain", () => {
  // 1 - 2 - 3 - 4        (abandoned)
  //      \- 5 - 6        (active)
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, 2), node(4, 3), node(5, 2), node(6, 5)], leaf: { line: 6 } });
  assert.deepEqual(shape(model.roots), [1, { 2: [{ 3: [4] }, { 5: [6] }] }]);
  const point = model.byLine.get(2)!;
  assert.equal(point.branchPoint, true);
  assert.match(description(point), /2 branches/);
  assert.equal(model.byLine.get(3)!.onActivePath, false);
  assert.equal(model.byLine.get(5)!.onActivePath, true);
  assert.equal(model.byLine.get(6)!.parent, model.byLine.get(5));
});

test("several roots and orphans (missing or self parents) each become a head", () => {
  const model = build({ nodes: [node(1, null), node(2, 1), node(3, null), node(4, 99), node(5, 5)] });
  assert.deepEqual(shape(model.roots), [{ 1: [2] }, 3, 4, 5]);
});

test("a nested `roots` payload is flattened the same way", () => {
  const nested: TreeResult = { roots: [{ line: 1, parent: null, children: [{ line: 2, parent: 1, children: [{ line: 3, parent: 2 }, { line: 4, parent: 2 }] }] }], leaf: { line: 4 } };
  assert.deepEqual(shape(build(nested).roots), [1, { 2: [3, 4] }]);
});

test("a 100,000-entry chain and a 20,000-deep comb build without recursion", () => {
  const chain = Array.from({ length: 100_000 }, (_, i) => node(i + 1, i === 0 ? null : i));
  const linear = build({ nodes: chain, leaf: { line: 100_000 } });
  assert.equal(linear.roots.length, 100_000);
  assert.equal(linear.byLine.get(1)!.onActivePath, true);
  // every entry on the spine has a side branch: nesting depth grows with each branch point
  const comb: TreeNode[] = [node(0, null)];
  for (let i = 1; i <= 20_000; i++) comb.push(node(2 * i - 1, 2 * i - 3 < 0 ? 0 : 2 * i - 3), node(2 * i, 2 * i - 3 < 0 ? 0 : 2 * i - 3));
  const deep = build({ nodes: comb });
  assert.equal(deep.byLine.size, comb.length);
});

test("titles show the role and the first words on one line; labels and the leaf show in the description", () => {
  const model = build({ nodes: [node(0, null, "fix the\n  parser  please", { label: "start" })], leaf: { line: 0 } });
  const only = model.byLine.get(0)!;
  assert.equal(title(only.entry), "user: fix the parser please");
  assert.equal(description(only), "🏷 start  ● active leaf  line 1");
  assert.equal(title({ line: 3, parent: null, type: "model_change" }), "model_change");
});
