// behaved-studio editor: changing a node's kind in place (a sequence into a
// selector or a parallel, a retry into a repeater, ...), keeping what the
// new kind can hold and refusing, with a message, a change that would lose
// children. Pure (no page): unit-tested with node --test
// (bt-studio/js-tests/kinds.test.mjs).
// @ts-check

/** @typedef {import('./catalogue.js').Kind} Kind */

/** Which slots hold which fields: the nodes a kind's children are kept in. */
const SLOT_FIELDS = {
  none: [],
  child: ['child'],
  children: ['children'],
  conditionChild: ['condition', 'child'],
  branches: ['branches', 'else'],
  cases: ['cases', 'default'],
};

/**
 * The node `node` as kind `to`: the fields both kinds have are kept (its
 * name and hooks too), the old kind's other fields dropped, the new
 * kind's missing ones taken from `defaults` (the editor's template of a
 * new node of kind `to`). Children are kept: between composites as they
 * are, a decorator's one child as a composite's only child and back, a
 * leaf becoming a composite with none. A change that would lose children
 * (or leave a decorator without its child) is refused: `{ error }` says
 * why; otherwise `{ node }`, a new object (`node` is not changed).
 * @param {any} node
 * @param {string} to
 * @param {Kind[]} kinds the catalogue's kinds
 * @param {Record<string, any>} defaults
 * @returns {{ node: any } | { error: string }}
 */
export function changeKind(node, to, kinds, defaults) {
  const from = kinds.find((k) => k.type === node.type);
  const kind = kinds.find((k) => k.type === to);
  if (!kind) return { error: `${JSON.stringify(to)} is not a node kind` };
  if (!from) return { error: `${JSON.stringify(node.type)} is not a node kind: fix its type first` };
  /** @type {Record<string, any>} */
  const next = { ...node, type: to };
  const children = held(node, from);
  const refuse = (why) => ({ error: `cannot change ${from.type} into ${to}: ${why}` });
  if (from.slots !== kind.slots) {
    for (const f of SLOT_FIELDS[from.slots]) delete next[f];
    if (kind.slots === 'children') next.children = children;
    else if (kind.slots === 'child' || kind.slots === 'conditionChild') {
      if (from.slots === 'conditionChild') return refuse(`its condition would be lost (${to} has none)`);
      if (children.length !== 1) {
        return refuse(`${to} holds exactly one child; this ${from.type} has ${count(children.length)}`);
      }
      next.child = children[0];
    } else if (children.length) {
      const holds = kind.slots === 'none' ? 'no children' : `${kind.slots}, not children`;
      return refuse(`${to} holds ${holds}; this ${from.type} has ${count(children.length)}`);
    }
  }
  for (const f of from.fields) if (!kind.fields.includes(f)) delete next[f];
  for (const f of kind.fields) if (next[f] === undefined && defaults[f] !== undefined) next[f] = defaults[f];
  return { node: next };
}

/**
 * The nodes `node` holds, as one list: its children, its one child, or
 * its condition and child; the arms of an `if` or `match` count as many
 * as they are.
 * @param {any} node
 * @param {Kind} kind
 * @returns {any[]}
 */
function held(node, kind) {
  switch (kind.slots) {
    case 'children': return node.children || [];
    case 'child': return node.child === undefined ? [] : [node.child];
    case 'conditionChild': return [node.condition, node.child].filter((n) => n !== undefined);
    case 'branches': return [...(node.branches || []), ...(node.else === undefined ? [] : [node.else])];
    case 'cases': return [...(node.cases || []), ...(node.default === undefined ? [] : [node.default])];
    default: return [];
  }
}

/** `n` children, in words. */
const count = (n) => (n === 0 ? 'none' : n === 1 ? 'one' : `${n}`);
