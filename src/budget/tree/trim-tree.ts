/**
 * The trim tree: what a budget can keep of a response. The root stands for the response itself,
 * its children for items, theirs for the alternative renderings of an item (levels) and the parts
 * that can be cut (blocks of lines of a long text, middle comments of a thread).
 *
 * A selection keeps the root and is connected (a node is kept only with its parent); a node marked
 * `exclusive` keeps at most one child (an item has one level). The algorithms maximise the kept
 * value with the kept weight (tokens of the chosen tokenizer) within a budget.
 */
export interface TrimNode {
  /** Tokens this node adds when kept: its own part, not its children's. Whole, non-negative. */
  weight: number;
  /** Information value this node adds when kept (from the strategy). Non-negative. */
  value: number;
  children: TrimNode[];
  /** At most one child may be kept: the children are alternatives. */
  exclusive?: boolean;
  /** What the node stands for, for whoever renders a selection; the algorithms never look at it. */
  ref?: unknown;
}

/**
 * The same tree as flat arrays in preorder (node 0 is the root), which is what every algorithm
 * walks. `end[i]` is one past the last node of i's subtree.
 */
export interface FlatTree {
  size: number;
  parent: Int32Array;
  weight: Float64Array;
  value: Float64Array;
  exclusive: Uint8Array;
  /** Children of each node, in order. */
  children: number[][];
  end: Int32Array;
  /** Each node's `ref`, in preorder. */
  refs: unknown[];
}

/** Which nodes are kept, by preorder index. */
export type Selection = Uint8Array;

export function flatten(root: TrimNode): FlatTree {
  const nodes: TrimNode[] = [];
  const parents: number[] = [];
  const stack: [TrimNode, number][] = [[root, -1]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    nodes.push(node);
    parents.push(parent);
    const index = nodes.length - 1;
    for (let c = node.children.length - 1; c >= 0; c--) stack.push([node.children[c]!, index]);
  }
  const size = nodes.length;
  const tree: FlatTree = {
    size,
    parent: Int32Array.from(parents),
    weight: new Float64Array(size),
    value: new Float64Array(size),
    exclusive: new Uint8Array(size),
    children: nodes.map(() => []),
    end: new Int32Array(size),
    refs: nodes.map((n) => n.ref),
  };
  for (let i = 0; i < size; i++) {
    const n = nodes[i]!;
    if (!(n.weight >= 0) || !(n.value >= 0)) throw new RangeError(`trim node ${i}: weight and value must be non-negative numbers`);
    tree.weight[i] = Math.ceil(n.weight);
    tree.value[i] = n.value;
    tree.exclusive[i] = n.exclusive ? 1 : 0;
    if (i > 0) tree.children[parents[i]!]!.push(i);
  }
  for (let i = size - 1; i >= 0; i--) {
    const kids = tree.children[i]!;
    tree.end[i] = kids.length === 0 ? i + 1 : tree.end[kids[kids.length - 1]!]!;
  }
  return tree;
}

export function selectionWeight(tree: FlatTree, kept: Selection): number {
  let w = 0;
  for (let i = 0; i < tree.size; i++) if (kept[i]) w += tree.weight[i]!;
  return w;
}

export function selectionValue(tree: FlatTree, kept: Selection): number {
  let v = 0;
  for (let i = 0; i < tree.size; i++) if (kept[i]) v += tree.value[i]!;
  return v;
}

/** Why a selection breaks the tree's rules, or undefined when it keeps them. */
export function selectionProblem(tree: FlatTree, kept: Selection): string | undefined {
  if (!kept[0]) return 'the root is not kept';
  for (let i = 1; i < tree.size; i++) if (kept[i] && !kept[tree.parent[i]!]) return `node ${i} is kept without its parent`;
  for (let i = 0; i < tree.size; i++) {
    if (tree.exclusive[i] && tree.children[i]!.filter((c) => kept[c]).length > 1) return `node ${i} keeps more than one alternative`;
  }
  return undefined;
}
