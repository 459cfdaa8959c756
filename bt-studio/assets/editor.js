// behaved-studio's tree editor: edits a tree's JSON document (behaved-interp's
// FORMAT.md) in the page; the server checks every version with behaved-interp's
// loader, saves it in a stable layout and replays it against a recording.
//
// Nodes are addressed by their JSON path, as the loader writes it in its
// problems: "" for the root, "children[1].child", "branches[0].then", ...
//
// Test hooks: body[data-state] is "loading", "ready" or "error" and
// body[data-pending] counts the checks and saves in flight; every drawn node
// carries data-path (and data-error with its problems); window.btEditor.docText()
// is the document as JSON text, recordingText() the recording chosen or handed over; body[data-dirty] says whether it differs from
// what was opened or last saved.
// @ts-check
import * as BtDraw from './draw.js';
import { catalogue, limits } from './catalogue.js';
import { traceBytesPastLimit } from './limits.js';
import { changeKind } from './kinds.js';
import { scoresEditor, pickScoreEditor } from './curve-editor.js';

const { svgEl, html, all, onDroppedFile, BOX_H, shorten } = BtDraw;
const $ = (sel) => document.querySelector(sel);

/**
 * What the editor holds: the file's name, the document (JSON) and what
 * the server sent with it, the selection (a JSON path), the clipboard, the
 * undo and redo stacks (documents as text), the loader's problems, the
 * layout and zoom, and the preview.
 */
const ed = {
  name: '',
  /** @type {any} */
  doc: null,
  palette: null,
  leaves: null,
  library: {},
  recorded: null,
  traceText: null,
  selected: '',
  clipboard: null,
  /** @type {string[]} */
  undo: [],
  /** @type {string[]} */
  redo: [],
  problems: [],
  checkSeq: 0,
  layout: null,
  zoom: { x: 20, y: 20, s: 1 },
  viewing: null, // the id of a library subtree shown read-only, or null
  preview: null,
  picks: {},
};

// ---------------------------------------------------------------- paths

/** Where each kind's children sit ("child", "children", "conditionChild", ..), from the runtime's catalogue. */
const SLOTS = Object.fromEntries(catalogue.kinds.map((k) => [k.type, k.slots]));
/** The paths below node `n` of its children, in the loader's order. */
function slots(n) {
  const out = [];
  if (!n || typeof n !== 'object') return out;
  const s = SLOTS[n.type];
  if (s === 'conditionChild' && isObj(n.condition) && n.condition.type) out.push('condition');
  if (s === 'branches') {
    (Array.isArray(n.branches) ? n.branches : []).forEach((b, i) => {
      if (isObj(b) && isObj(b.if)) out.push(`branches[${i}].if`);
      if (isObj(b) && isObj(b.then)) out.push(`branches[${i}].then`);
    });
    if (isObj(n.else)) out.push('else');
  } else if (s === 'cases') {
    (Array.isArray(n.cases) ? n.cases : []).forEach((c, i) => {
      if (isObj(c) && isObj(c.child)) out.push(`cases[${i}].child`);
    });
    if (isObj(n.default)) out.push('default');
  }
  if (Array.isArray(n.children)) n.children.forEach((c, i) => isObj(c) && out.push(`children[${i}]`));
  if (isObj(n.child)) out.push('child');
  return out;
}
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const join = (path, suffix) => (path ? `${path}.${suffix}` : suffix);

/** The steps of a path: "children[1].child" -> ["children", 1, "child"]. */
function steps(path) {
  const out = [];
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) || []) {
    out.push(part.startsWith('[') ? Number(part.slice(1, -1)) : part);
  }
  return out;
}
function get(doc, path) {
  let v = doc;
  for (const s of steps(path)) v = v == null ? undefined : v[s];
  return v;
}
/** The container and key of `path` inside `doc`. */
function parentRef(doc, path) {
  const st = steps(path);
  const key = st.pop();
  let v = doc;
  for (const s of st) v = v[s];
  return { obj: v, key };
}
/** The path of the node holding `path` (the node above it). */
function parentPath(path) {
  const st = path.match(/[^.[\]]+|\[\d+\]/g) || [];
  // Drop the slot: "children[2]" is two parts, "branches[0].then" three, "child" one.
  let cut = st.length - 1;
  if (st[cut] && st[cut].startsWith('[')) cut--; // children[i]
  else if (cut >= 2 && st[cut - 1].startsWith('[')) cut -= 2; // branches[i].if, cases[i].child
  return rebuild(st.slice(0, cut));
}
const rebuild = (parts) => parts.reduce((p, s) => (s.startsWith('[') ? p + s : join(p, s)), '');

// ---------------------------------------------------------------- arms of if and match

const isIf = (n) => isObj(n) && SLOTS[n.type] === 'branches';
const isMatch = (n) => isObj(n) && SLOTS[n.type] === 'cases';
/**
 * The arm that `path` is a slot of (a branch's `if` or `then`, a case's
 * `child`): { owner, list, index, slot }, or null.
 */
function armOf(path) {
  const m = /(?:^|\.)(branches|cases)\[(\d+)\]\.(if|then|child)$/.exec(path);
  return m && { owner: path.slice(0, m.index), list: m[1], index: Number(m[2]), slot: m[3] };
}
const armPath = (owner, list, index) => join(owner, `${list}[${index}].${list === 'branches' ? 'then' : 'child'}`);
/** A new branch of an `if` running `node`, on the first registered condition. */
const newBranch = (node) => ({ if: { type: 'condition', condition: leafTemplate('conditions', Object.keys(ed.leaves?.conditions || {})[0] || '') }, then: node });
/** A new case of `match` node `m` running `node`, on a key no case has yet. */
function newCase(m, node) {
  const used = new Set((m.cases || []).flatMap((c) => (Array.isArray(c?.when) ? c.when : [c?.when])).map((k) => JSON.stringify(k)));
  let i = 1;
  while (used.has(JSON.stringify(i === 1 ? 'key' : `key ${i}`))) i++;
  return { when: i === 1 ? 'key' : `key ${i}`, child: node };
}
/** An arm for `list` of node `owner` running `node` (or `arm` itself when it is one of that list). */
const armFor = (owner, list, node, arm) => (arm && arm.list === list ? arm.value : list === 'branches' ? newBranch(node) : newCase(owner, node));

/**
 * Match keys as typed: `night`, `dusk, night`, `1, 2`, `true`, `"a, b"` or
 * a JSON array. Numbers are integers and `true`/`false` booleans; put a
 * key in quotes to keep it a string. Returns { when } or { error }.
 */
function parseKeys(text) {
  let parts;
  if (text.trim().startsWith('[')) {
    try {
      parts = JSON.parse(text);
    } catch (e) {
      return { error: `not a JSON array: ${e.message}` };
    }
    if (!Array.isArray(parts) || !parts.length) return { error: 'a case needs at least one key' };
  } else {
    parts = [];
    let i = 0;
    for (;;) {
      while (text[i] === ' ') i++;
      if (text[i] === '"') {
        let j = i + 1;
        while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        const quoted = text.slice(i, j + 1);
        try {
          parts.push(JSON.parse(quoted));
        } catch {
          return { error: `${quoted} is not a quoted string` };
        }
        i = j + 1;
        while (text[i] === ' ') i++;
        if (i < text.length && text[i] !== ',') return { error: `a comma goes after ${quoted}` };
      } else {
        const j = text.indexOf(',', i) < 0 ? text.length : text.indexOf(',', i);
        const t = text.slice(i, j).trim();
        i = j;
        if (t === '') return { error: 'an empty key: give a word, a whole number, true or false' };
        if (/^-?\d+$/.test(t)) parts.push(Number(t));
        else if (!Number.isNaN(Number(t))) return { error: `${t} is not a whole number (quote it to make it a word)` };
        else if (t === 'true' || t === 'false') parts.push(t === 'true');
        else parts.push(t);
      }
      if (i >= text.length) break;
      i++; // the comma
    }
  }
  for (const k of parts) {
    const ok = typeof k === 'string' || typeof k === 'boolean' || Number.isInteger(k);
    if (!ok) return { error: `${JSON.stringify(k)} is not a key: keys are strings, whole numbers or booleans` };
  }
  return { when: parts.length === 1 ? parts[0] : parts };
}
/** Keys as `parseKeys` reads them back. */
function keysText(when) {
  if (when === undefined) return '';
  const one = (k) => (typeof k === 'string' && (k.trim() !== k || k === '' || /^(-?\d+|true|false)$/.test(k) || /[",]/.test(k) || k.startsWith('[')) ? JSON.stringify(k) : String(k));
  return (Array.isArray(when) ? when : [when]).map(one).join(', ');
}

/** Every node of `root`: path -> { node, kids, parent }. Pre-order. */
function walk(root) {
  const nodes = new Map();
  const visit = (n, path, parent) => {
    const entry = { node: n, kids: [], parent };
    nodes.set(path, entry);
    for (const s of slots(n)) {
      const p = join(path, s);
      entry.kids.push(p);
      visit(get(n, s), p, path);
    }
  };
  if (isObj(root)) visit(root, '', null);
  return nodes;
}

// ---------------------------------------------------------------- labels

const leafName = (leaf) => (typeof leaf === 'string' ? leaf : isObj(leaf) ? leaf.type || '?' : '?');
// As the interpreter and `behave!` label a node (behaved-format's label module,
// SEMANTICS.md "Labels"): the DSL word, parameters in parentheses, Rust
// code as code, a loop's label first.
const codeOf = (leaf) => {
  if (!isObj(leaf) || typeof leaf.code !== 'string') return null;
  if (leaf.type === 'inline') return leaf.code;
  const own = Object.keys(leaf).length === 2 && /^[(: {]/.test(leaf.code.slice(String(leaf.type).length));
  return own && leaf.code.startsWith(leaf.type) ? leaf.code : null;
};
function leafLabel(leaf) {
  const code = codeOf(leaf);
  if (code !== null) return code;
  if (!isObj(leaf)) return leafName(leaf);
  const params = Object.keys(leaf).filter((k) => k !== 'type').sort();
  if (!params.length) return leafName(leaf);
  return `${leafName(leaf)}(${params.map((k) => `${k}: ${JSON.stringify(leaf[k])}`).join(', ')})`;
}
const word = (type) => ed.palette?.kinds.find((k) => k.type === type)?.dsl ?? type;
/** `all`, `any` or the thresholds, for the parallel's children. */
function parallelArgs(n) {
  const all = Array.isArray(n.children) ? n.children.length : 0;
  let [s, f] = [n.success ?? all, n.failure ?? all];
  if (n.policy === 'requireAll') [s, f] = [all, 1];
  if (n.policy === 'requireOne') [s, f] = [1, all];
  if (s === all && f === 1) return 'all';
  if (s === 1 && f === all) return 'any';
  return `success = ${s}, failure = ${f}`;
}
const seconds = (s) => (Number.isInteger(s) ? `${s}.0` : `${s}`);
function label(n) {
  const w = word(n.type);
  let base = w;
  if (n.type === 'condition' || n.type === 'action') {
    const leaf = n[n.type];
    const inline = isObj(leaf) && leaf.type === 'inline' ? codeOf(leaf) : null;
    base = inline !== null ? `${w}(${inline})` : leafLabel(leaf);
  } else if (n.type === 'waitUntil') base = `${w}(${leafLabel(n.condition)})`;
  else if (n.count !== undefined) base = `${w}(${n.count})`;
  else if (n.seconds !== undefined) base = `${w}(${typeof n.seconds === 'number' ? seconds(n.seconds) : n.seconds})`;
  else if (n.type === 'subtree') base = `${w}(${n.subtreeId})`;
  else if (n.type === 'forEach') base = `${w}(${leafLabel(n.items)}, max ${n.max ?? '?'})`;
  else if (n.value !== undefined) base = `${w}(${leafLabel(n.value)})`;
  else if (Array.isArray(n.weights)) base = `${w}(${n.weights.join(', ')})`;
  else if (n.type === 'parallel') base = `${w}(${parallelArgs(n)})`;
  if (typeof n.label === 'string') base = SLOTS[n.type] === 'none' ? `${base} '${n.label}` : `'${n.label}: ${base}`;
  return n.name ? `${n.name}` : base;
}
/** The tooltip of a node: its name and its own label. */
const fullLabel = (n) => (n.name ? `${n.name}: ${label({ ...n, name: undefined })}` : label(n));

// ---------------------------------------------------------------- loading

function showError(message) {
  const box = $('#error');
  box.textContent = message;
  box.hidden = !message;
}
function status(text, bad) {
  const s = $('#status');
  s.textContent = text;
  s.classList.toggle('bad', !!bad);
}

async function start() {
  wire();
  let open;
  try {
    const r = await fetch('/api/edit/open');
    open = await r.json();
  } catch (e) {
    document.body.dataset.state = 'error';
    showError(`cannot reach the editor's server: ${e}`);
    return;
  }
  ed.name = open.name;
  ed.palette = open.palette;
  ed.leaves = open.leaves;
  ed.library = open.library || {};
  ed.recorded = open.recorded;
  document.title = `${open.name} · behaved-studio editor`;
  $('#title').textContent = open.name;
  renderPalette();
  renderLibrary();
  if (open.error) {
    document.body.dataset.state = 'error';
    showError(open.error);
    return;
  }
  ed.doc = open.doc;
  ed.savedText = JSON.stringify(ed.doc);
  if (open.new) offerRootKinds();
  document.body.dataset.state = 'ready';
  markDirty();
  redraw();
  fit();
  check();
  takeRecording();
}

/**
 * Opened from the live view's "Edit & replay" (`/edit#recording`): the
 * followed agent's window, which the live view left in localStorage, is
 * the recording to replay against (taken once, then removed).
 */
function takeRecording() {
  if (location.hash !== '#recording') return;
  history.replaceState(null, '', location.pathname);
  const KEY = 'behaved-studio.recording';
  const text = localStorage.getItem(KEY);
  localStorage.removeItem(KEY);
  if (!text) {
    status('no window came from the live view (it is handed over once: press Edit & replay there again)', true);
    return;
  }
  const { name, trace } = JSON.parse(text);
  ed.traceText = JSON.stringify(trace);
  status(`replaying against ${name}'s window from the live view`);
  runPreview();
}

// ---------------------------------------------------------------- palette and library

/** A new node of `kind`, with what the loader needs filled in where there is an obvious default. */
function template(kind) {
  const k = ed.palette.kinds.find((x) => x.type === kind);
  const n = { type: kind };
  if (!k) return n;
  if (k.arity === 'many') n.children = [];
  if (k.fields.includes('count')) n.count = 1;
  if (k.fields.includes('policy')) n.policy = 'requireAll';
  if (k.fields.includes('seconds') && kind !== 'wait') n.seconds = 1.0;
  if (k.slots === 'branches') n.branches = [];
  if (k.slots === 'cases') n.cases = [];
  if (kind === 'forEach') {
    n.items = leafTemplate('lists', Object.keys(ed.leaves?.lists || {})[0] || '');
    if (Object.keys(n.items).length === 1) n.items = n.items.type;
    n.max = 8;
  }
  if (kind === 'subtree') n.subtreeId = Object.keys(ed.library)[0] || '';
  if (kind === 'condition' || kind === 'waitUntil') n.condition = leafTemplate('conditions', Object.keys(ed.leaves?.conditions || {})[0] || '');
  if (kind === 'action') n.action = leafTemplate('actions', Object.keys(ed.leaves?.actions || {})[0] || '');
  return n;
}
/** A leaf of registered type `name`, its required parameters present and empty. */
function leafTemplate(family, name) {
  const doc = ed.leaves?.[family]?.[name];
  const leaf = { type: name };
  for (const p of doc?.params || []) if (p.required) leaf[p.name] = sample(p);
  return leaf;
}
function sample(p) {
  switch (p.type) {
    case 'string': return '';
    case 'boolean': return false;
    case 'integer': return p.minimum ?? 0;
    case 'number': return 0;
    case 'choice': return p.values[0];
    case 'list': return [];
    case 'object': return {};
    default: return null;
  }
}

function renderPalette() {
  const box = $('#palette');
  box.replaceChildren();
  for (const group of ed.palette.groups) {
    box.appendChild(html('h4', {}, group));
    for (const k of ed.palette.kinds.filter((x) => x.group === group)) {
      const b = html('button', { 'data-kind': k.type, title: `${k.dsl}: ${k.summary}` }, `${BtDraw.ICONS[k.type] || '•'} ${k.type}`);
      b.addEventListener('click', () => add(template(k.type)));
      box.appendChild(b);
    }
  }
  for (const [family, kind, title] of [['conditions', 'condition', 'registered conditions'], ['actions', 'action', 'registered actions']]) {
    const names = Object.keys(ed.leaves?.[family] || {});
    if (!names.length) continue;
    box.appendChild(html('h4', {}, title));
    for (const name of names) {
      const b = html('button', { 'data-leaf': name, 'data-family': kind }, `${BtDraw.ICONS[kind]} ${name}`);
      b.addEventListener('click', () => add({ type: kind, [kind]: leafTemplate(family, name) }));
      box.appendChild(b);
    }
  }
  const wrap = $('#wrap');
  for (const k of ed.palette.kinds.filter((x) => x.arity === 'one')) {
    wrap.appendChild(html('option', { value: k.type }, k.type));
  }
}

/** Shows only the palette's buttons whose kind or leaf name contains the filter's text. */
function filterPalette() {
  const q = $('#palette-filter').value.trim().toLowerCase();
  let heading = null, shown = 0;
  const close = () => heading && (heading.hidden = shown === 0);
  for (const el of $('#palette').children) {
    if (el.tagName === 'H4') {
      close();
      heading = el;
      shown = 0;
      continue;
    }
    const name = (el.dataset.kind || el.dataset.leaf || '').toLowerCase();
    el.hidden = q !== '' && !name.includes(q) && !(el.title || '').toLowerCase().includes(q);
    if (!el.hidden) shown++;
  }
  close();
}

/** Marks the page (title, body[data-dirty]) when the document differs from the file. */
function markDirty() {
  const dirty = JSON.stringify(ed.doc) !== ed.savedText;
  document.body.dataset.dirty = String(dirty);
  document.title = `${dirty ? '● ' : ''}${ed.name} · behaved-studio editor`;
  $('#title').textContent = `${dirty ? '● ' : ''}${ed.name}`;
}

function renderLibrary() {
  const list = $('#library');
  list.replaceChildren();
  const ids = Object.keys(ed.library);
  if (!ids.length) list.appendChild(html('li', { class: 'hint' }, 'No library (start with --library DIR).'));
  for (const id of ids) {
    const li = html('li', { 'data-subtree': id });
    li.appendChild(html('span', { title: id }, `⧉ ${id}`));
    const ins = html('button', { title: 'Insert a reference to this subtree' }, 'Insert');
    ins.addEventListener('click', () => add({ type: 'subtree', subtreeId: id }));
    const open = html('button', { title: 'Show this subtree' }, 'Open');
    open.addEventListener('click', () => openSubtree(id));
    li.append(ins, open);
    list.appendChild(li);
  }
}

function openSubtree(id) {
  if (!(id in ed.library)) {
    status(`no subtree ${JSON.stringify(id)} in the library`, true);
    return;
  }
  ed.viewing = id;
  $('#subtree-bar').hidden = false;
  $('#subtree-text').textContent = `Subtree "${id}" of the library (read only here; edit its own file).`;
  redraw();
  fit();
}
function closeSubtree() {
  ed.viewing = null;
  $('#subtree-bar').hidden = true;
  redraw();
  fit();
}

// ---------------------------------------------------------------- editing

/** Applies `change(doc)` to a copy of the document, as one undoable step. */
function edit(change, select) {
  if (ed.viewing !== null) return false;
  const before = JSON.stringify(ed.doc);
  const doc = JSON.parse(before);
  const result = change(doc);
  if (result === false) return false;
  ed.undo.push(before);
  ed.redo = [];
  ed.doc = result && result.doc !== undefined ? result.doc : doc;
  if (select !== undefined) ed.selected = select;
  else if (result && result.select !== undefined) ed.selected = result.select;
  if (get(ed.doc, ed.selected) === undefined) ed.selected = '';
  changed();
  reveal(ed.selected);
  return true;
}
function changed() {
  if (ed.preview) {
    ed.preview = null;
    $('#preview-text').textContent = 'The tree changed: Preview again to replay it.';
    $('#preview-text').className = '';
    $('#preview-tick').textContent = '';
  }
  redraw();
  check();
  markDirty();
  // A new file's root kind, as changed anywhere (its kind control, undo).
  if (!$('#new-bar').hidden) $('#new-root').value = ed.doc.type;
}
/**
 * Goes back to the last document of `from` (the undo or the redo stack),
 * keeping the current one on `to`.
 * @param {string[]} from
 * @param {string[]} to
 */
function restore(from, to) {
  if (!from.length) return;
  to.push(JSON.stringify(ed.doc));
  ed.doc = JSON.parse(from.pop());
  if (get(ed.doc, ed.selected) === undefined) ed.selected = '';
  changed();
}
const undo = () => restore(ed.undo, ed.redo);
const redo = () => restore(ed.redo, ed.undo);

/**
 * Where a node goes when added at the selection: into it (an `if` gets a
 * new branch, a `match` its `default` or a new case), or after it (after
 * its arm, for the node of an arm).
 */
function insertionPoint(doc, at) {
  const n = get(doc, at);
  if (isObj(n) && Array.isArray(n.children)) return { array: n.children, index: n.children.length, path: join(at, 'children') };
  if (isIf(n) || (isMatch(n) && isObj(n.default))) {
    const list = isIf(n) ? 'branches' : 'cases';
    if (!Array.isArray(n[list])) n[list] = [];
    return { owner: n, ownerPath: at, list, index: n[list].length };
  }
  if (isMatch(n)) return { single: n, key: 'default', path: join(at, 'default') };
  const arm = armOf(at);
  if (arm) return { owner: get(doc, arm.owner), ownerPath: arm.owner, list: arm.list, index: arm.index + 1 };
  const k = ed.palette.kinds.find((x) => x.type === n?.type);
  if (k && k.arity === 'one' && !isObj(n.child)) return { single: n, key: 'child', path: join(at, 'child') };
  if (at === '') return null;
  const { obj, key } = parentRef(doc, at);
  if (Array.isArray(obj)) {
    const parentArrayPath = at.slice(0, at.lastIndexOf('['));
    return { array: obj, index: key + 1, path: parentArrayPath };
  }
  return null;
}
function insertAt(doc, at, node) {
  const point = insertionPoint(doc, at);
  if (!point) return null;
  if (point.list) {
    point.owner[point.list].splice(point.index, 0, armFor(point.owner, point.list, node));
    return armPath(point.ownerPath, point.list, point.index);
  }
  if (point.array) {
    point.array.splice(point.index, 0, node);
    return `${point.path}[${point.index}]`;
  }
  point.single[point.key] = node;
  return point.path;
}
function add(node) {
  const ok = edit((doc) => {
    if (!isObj(doc)) return { doc: node, select: '' };
    const path = insertAt(doc, ed.selected, node);
    if (path === null) {
      status('Select a composite to add into, or a node in a list of children to add after.', true);
      return false;
    }
    return { select: path };
  });
  if (ok) status(`added ${node.type}`);
}
/** Removes the node at `path`; the node of an arm goes with its arm (no arm is left without one). */
function remove(doc, path) {
  const arm = armOf(path);
  if (arm) {
    get(doc, arm.owner)[arm.list].splice(arm.index, 1);
    return;
  }
  const { obj, key } = parentRef(doc, path);
  if (Array.isArray(obj)) obj.splice(key, 1);
  else delete obj[key];
}
function deleteSelected() {
  if (ed.selected === '') {
    status('The root cannot be deleted; wrap it or replace its children.', true);
    return;
  }
  const at = ed.selected;
  edit((doc) => {
    remove(doc, at);
    return { select: parentPath(at) };
  });
}
function copySelected() {
  const n = get(ed.doc, ed.selected);
  if (n === undefined) return;
  ed.clipboard = JSON.stringify(n);
  status('copied');
}
function cutSelected() {
  if (ed.selected === '') return status('The root cannot be cut.', true);
  copySelected();
  deleteSelected();
}
/** Puts a copy of the selected subtree right after it (of its arm, for an arm's node). */
function duplicateSelected() {
  const at = ed.selected;
  const arm = armOf(at);
  const ok = edit((doc) => {
    if (arm) {
      const arms = get(doc, arm.owner)[arm.list];
      arms.splice(arm.index + 1, 0, JSON.parse(JSON.stringify(arms[arm.index])));
      return { select: join(arm.owner, `${arm.list}[${arm.index + 1}].${arm.slot}`) };
    }
    if (at === '' || !at.endsWith(']')) return false;
    const { obj, key } = parentRef(doc, at);
    obj.splice(key + 1, 0, JSON.parse(JSON.stringify(obj[key])));
    return { select: `${at.slice(0, at.lastIndexOf('['))}[${key + 1}]` };
  });
  if (ok) status('duplicated');
  else status('Only a node in a list of children, or of a branch or case, can be duplicated.', true);
}
function paste() {
  if (!ed.clipboard) return status('Nothing to paste.', true);
  add(JSON.parse(ed.clipboard));
}
function wrapSelected(kind) {
  const at = ed.selected;
  edit((doc) => {
    const deco = template(kind);
    if (at === '') {
      deco.child = doc;
      return { doc: deco, select: '' };
    }
    const { obj, key } = parentRef(doc, at);
    deco.child = obj[key];
    obj[key] = deco;
    return { select: at };
  });
}
/** Moves the selection `d` places among its siblings (in a list of children, or its arm among the arms). */
function moveBy(d) {
  const at = ed.selected;
  const arm = armOf(at);
  if (arm) {
    edit((doc) => {
      const arms = get(doc, arm.owner)[arm.list];
      const to = arm.index + d;
      if (to < 0 || to >= arms.length) return false;
      arms.splice(to, 0, ...arms.splice(arm.index, 1));
      return { select: join(arm.owner, `${arm.list}[${to}].${arm.slot}`) };
    });
    return;
  }
  if (at === '' || !at.endsWith(']')) return;
  edit((doc) => {
    const { obj, key } = parentRef(doc, at);
    if (!Array.isArray(obj)) return false;
    const to = key + d;
    if (to < 0 || to >= obj.length) return false;
    const [n] = obj.splice(key, 1);
    obj.splice(to, 0, n);
    return { select: `${at.slice(0, at.lastIndexOf('['))}[${to}]` };
  });
}
/**
 * Drag and drop: `from` goes into composite `onto`, or before it in its
 * list. Onto an `if` or `match` it becomes a new arm (its `default` when
 * the `match` has none), before an arm when dropped on one's node; the
 * node of an arm moves with its arm (its condition or keys) where arms of
 * its kind go, alone elsewhere.
 */
function moveTo(from, onto) {
  if (from === '' || onto === from || onto.startsWith(from + '.') || onto.startsWith(from + '[')) {
    status('A node cannot move into itself.', true);
    return;
  }
  edit((doc) => {
    const node = get(doc, from);
    const target = get(doc, onto);
    const fromArm = armOf(from);
    const arm = fromArm && { list: fromArm.list, value: get(doc, fromArm.owner)[fromArm.list][fromArm.index] };
    // Mark the target, remove the node, then find the target again (paths shift).
    const mark = {};
    target.__bt_drop = mark;
    remove(doc, from);
    const found = [...walk(doc)].find(([, e]) => e.node.__bt_drop === mark);
    if (!found) return false;
    const [path, entry] = found;
    delete entry.node.__bt_drop;
    const into = entry.node;
    if (isMatch(into) && !isObj(into.default) && !(arm && arm.list === 'cases')) {
      into.default = node;
      return { select: join(path, 'default') };
    }
    if (isIf(into) || isMatch(into)) {
      const list = isIf(into) ? 'branches' : 'cases';
      if (!Array.isArray(into[list])) into[list] = [];
      into[list].push(armFor(into, list, node, arm));
      return { select: armPath(path, list, into[list].length - 1) };
    }
    const onArm = armOf(path);
    if (onArm) {
      const owner = get(doc, onArm.owner);
      owner[onArm.list].splice(onArm.index, 0, armFor(owner, onArm.list, node, arm));
      return { select: armPath(onArm.owner, onArm.list, onArm.index) };
    }
    if (Array.isArray(entry.node.children)) {
      entry.node.children.push(node);
      return { select: `${join(path, 'children')}[${entry.node.children.length - 1}]` };
    }
    if (path === '' || !path.endsWith(']')) return false;
    const { obj, key } = parentRef(doc, path);
    obj.splice(key, 0, node);
    return { select: path };
  });
}

// ---------------------------------------------------------------- checking and saving

async function post(url, body) {
  document.body.dataset.pending = String(Number(document.body.dataset.pending) + 1);
  try {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    let data;
    try {
      data = await r.json();
    } catch {
      data = { error: `the server answered ${r.status}` };
    }
    return { ok: r.ok, status: r.status, data };
  } finally {
    document.body.dataset.pending = String(Number(document.body.dataset.pending) - 1);
  }
}

async function check() {
  const seq = ++ed.checkSeq;
  const r = await post('/api/edit/check', ed.doc);
  if (seq !== ed.checkSeq) return;
  ed.problems = r.ok ? r.data.problems : [{ path: '', message: r.data.error || 'the check failed' }];
  paintProblems();
}

/** The node a problem's path leads to: the longest node path it starts with. */
function nodeOf(path, nodes) {
  let best = null;
  for (const p of nodes.keys()) {
    const fits = p === '' || path === p || path.startsWith(p + '.') || path.startsWith(p + '[');
    if (fits && (best === null || p.length > best.length)) best = p;
  }
  return path.startsWith('subtrees[') ? null : best;
}

function paintProblems() {
  const nodes = walk(ed.doc);
  const at = new Map();
  for (const pr of ed.problems) {
    const n = nodeOf(pr.path, nodes);
    pr.node = n;
    if (n !== null) at.set(n, [...(at.get(n) || []), pr.message]);
  }
  ed.problemsAt = at;
  if (ed.viewing === null) {
    for (const g of all('#viewport .node')) {
      const msgs = at.get(g.dataset.path);
      g.classList.toggle('error', !!msgs);
      const warn = g.querySelector('.warn');
      if (msgs) {
        g.dataset.error = msgs.join('\n');
        if (warn) warn.textContent = '⚠';
      } else {
        delete g.dataset.error;
        if (warn) warn.textContent = '';
      }
    }
  }
  const list = $('#problems');
  list.replaceChildren();
  for (const pr of ed.problems) {
    const li = html('li', { 'data-path': pr.path });
    li.appendChild(html('code', {}, pr.path || '(root)'));
    li.appendChild(document.createTextNode(` ${pr.message}`));
    li.addEventListener('click', () => pr.node !== null && select(pr.node));
    list.appendChild(li);
  }
  $('#problem-count').textContent = ed.problems.length ? `(${ed.problems.length})` : '✓ the loader accepts this tree';
  renderProperties();
}

async function save(name, force) {
  $('#force').hidden = true;
  const body = { name, doc: ed.doc, force };
  const r = await post('/api/edit/save', body);
  if (r.ok) {
    if (name === ed.name) {
      ed.savedText = JSON.stringify(body.doc);
      $('#new-bar').hidden = true;
    }
    markDirty();
    if (r.data.pushError) status(`saved ${r.data.saved}, but ${r.data.pushError}`, true);
    else status(`saved ${r.data.saved}${r.data.pushed ? ', and sent to the running game' : ''}`);
    return;
  }
  if (r.status === 409) {
    $('#force').hidden = false;
    $('#force-text').textContent = `${r.data.error} (${r.data.problems.length} problem${r.data.problems.length === 1 ? '' : 's'})`;
    ed.forceName = name;
    status('not saved', true);
    return;
  }
  status(r.data.error || `not saved (${r.status})`, true);
}

// ---------------------------------------------------------------- properties

/** The kinds of the catalogue as a `<select>`'s options, by group. */
function kindOptions(s) {
  for (const group of ed.palette.groups) {
    const g = html('optgroup', { label: group });
    for (const k of ed.palette.kinds.filter((x) => x.group === group)) g.appendChild(html('option', { value: k.type }, k.type));
    s.appendChild(g);
  }
}

/** Changes the node at `at` into kind `to` as one step, or says why not; whether it did. */
function changeKindAt(at, to) {
  const n = get(ed.doc, at);
  const r = changeKind(n, to, ed.palette.kinds, template(to));
  if ('error' in r) {
    status(r.error, true);
    return false;
  }
  edit((d) => {
    if (at === '') return { doc: r.node };
    const { obj, key } = parentRef(d, at);
    obj[key] = r.node;
  });
  status(`changed ${n.type} into ${to}`);
  return true;
}

/** A new file: the bar that picks the kind of its root (until it is saved). */
function offerRootKinds() {
  const s = $('#new-root');
  kindOptions(s);
  s.value = ed.doc.type;
  $('#new-bar').hidden = false;
  s.addEventListener('change', () => {
    if (!changeKindAt('', s.value)) s.value = ed.doc.type;
  });
}

/**
 * The selected node's kind, changed in place (kinds.js): children kept
 * where the new kind holds them, refused with why where it cannot.
 */
function kindChooser(box, at, n) {
  const s = html('select', { 'data-field': 'kind', title: 'Change this node into another kind, keeping its children' });
  kindOptions(s);
  s.value = n.type;
  field(box, 'kind', s, false).addEventListener('change', () => {
    if (!changeKindAt(at, s.value)) s.value = n.type;
  });
}

function field(box, text, input, required) {
  const l = html('label', { class: required ? 'req' : '' }, text);
  box.append(l, input);
  return input;
}
/** Sets (or with `undefined`, removes) `key` of the node at `at`, as one step. */
function setField(at, key, value) {
  edit((doc) => {
    const n = get(doc, at);
    if (value === undefined) delete n[key];
    else n[key] = value;
  });
}
function numberInput(value, integer) {
  const i = html('input', { type: 'number', step: integer ? '1' : 'any' });
  if (value !== undefined) i.value = value;
  return i;
}
const readNumber = (input, integer) => {
  if (input.value.trim() === '') return undefined;
  const v = Number(input.value);
  return integer ? Math.trunc(v) : v;
};

/** The manifest's default of parameter `p`, as text (empty when it has none). */
const defaultText = (p) => (p.default === undefined ? '' : typeof p.default === 'string' ? p.default : JSON.stringify(p.default));

/**
 * An input for leaf parameter `p`, calling `set(value)` on change. A
 * parameter left out shows the manifest's default (a placeholder, the
 * default option, or the checkbox's state) without writing it.
 */
function paramInput(p, value, set) {
  let input;
  const placeholder = p.default !== undefined ? `default: ${defaultText(p)}` : p.required ? 'required' : '';
  switch (p.type) {
    case 'boolean':
      input = html('input', { type: 'checkbox' });
      input.checked = !!(value ?? p.default);
      input.addEventListener('change', () => set(input.checked));
      return input;
    case 'integer':
    case 'number':
      input = numberInput(value, p.type === 'integer');
      input.placeholder = placeholder;
      if (p.minimum !== undefined) input.min = p.minimum;
      input.addEventListener('change', () => set(readNumber(input, p.type === 'integer')));
      return input;
    case 'choice':
      input = html('select');
      if (!p.required) input.appendChild(html('option', { value: '' }, p.default !== undefined ? `(default: ${defaultText(p)})` : '(default)'));
      for (const v of p.values) input.appendChild(html('option', { value: v }, v));
      input.value = value ?? '';
      input.addEventListener('change', () => set(input.value === '' ? undefined : input.value));
      return input;
    case 'string':
      input = html('input', { type: 'text', placeholder });
      input.value = value ?? '';
      input.addEventListener('change', () => set(input.value === '' && !p.required ? undefined : input.value));
      return input;
    default:
      input = html('input', { type: 'text', placeholder: p.default !== undefined ? placeholder : 'JSON' });
      input.value = value === undefined ? '' : JSON.stringify(value);
      input.addEventListener('change', () => {
        try {
          set(input.value.trim() === '' ? undefined : JSON.parse(input.value));
        } catch {
          status(`${p.name}: not JSON`, true);
        }
      });
      return input;
  }
}

/** The leaf editor of a condition or action node: its type and parameters from the manifest. */
function leafEditor(box, at, n, kind) {
  const family = kind === 'condition' ? 'conditions' : 'actions';
  const leaf = isObj(n[kind]) ? n[kind] : { type: leafName(n[kind]) };
  const names = Object.keys(ed.leaves?.[family] || {});
  let typeInput;
  if (names.length) {
    typeInput = html('select', { 'data-field': 'leaf-type' });
    if (!names.includes(leaf.type)) typeInput.appendChild(html('option', { value: leaf.type }, `${leaf.type} (not registered)`));
    for (const name of names) typeInput.appendChild(html('option', { value: name }, name));
    typeInput.value = leaf.type;
  } else {
    typeInput = html('input', { type: 'text', 'data-field': 'leaf-type' });
    typeInput.value = leaf.type;
  }
  field(box, `${kind} type`, typeInput, true).addEventListener('change', () => {
    const doc = ed.leaves?.[family]?.[typeInput.value];
    const next = doc ? leafTemplate(family, typeInput.value) : { ...leaf, type: typeInput.value };
    setField(at, kind, next);
  });
  const params = ed.leaves?.[family]?.[leaf.type]?.params;
  const setParam = (name) => (value) => {
    const next = { ...leaf };
    if (value === undefined) delete next[name];
    else next[name] = value;
    setField(at, kind, next);
  };
  if (params) {
    for (const p of params) {
      const input = paramInput(p, leaf[p.name], setParam(p.name));
      input.dataset.param = p.name;
      const shown = p.default !== undefined ? `, default ${defaultText(p)}` : p.required ? '' : ', optional';
      field(box, `${p.name} (${p.type}${shown})`, input, p.required);
    }
  } else {
    for (const k of Object.keys(leaf).filter((k) => k !== 'type')) {
      const input = paramInput({ name: k, type: 'any' }, leaf[k], setParam(k));
      input.dataset.param = k;
      field(box, k, input, false);
    }
  }
}

/**
 * A forEach's `items`: a choice among the manifest's lists (free text
 * without one), then the chosen list's parameters as a leaf's.
 */
function itemsEditor(box, at, n) {
  const lists = ed.leaves?.lists || {};
  const items = isObj(n.items) ? n.items : { type: typeof n.items === 'string' ? n.items : '' };
  const names = Object.keys(lists);
  let input;
  if (names.length) {
    input = html('select', { 'data-field': 'items' });
    if (!names.includes(items.type)) input.appendChild(html('option', { value: items.type }, `${items.type} (not registered)`));
    for (const name of names) {
      const item = lists[name].item ? ` (items: ${lists[name].item.type})` : '';
      input.appendChild(html('option', { value: name }, `${name}${item}`));
    }
    input.value = items.type;
  } else {
    input = html('input', { type: 'text', 'data-field': 'items', placeholder: 'the registered list' });
    input.value = items.type;
  }
  const write = (leaf) => setField(at, 'items', Object.keys(leaf).length === 1 ? leaf.type : leaf);
  field(box, 'items (list)', input, true).addEventListener('change', () => {
    const next = lists[input.value] ? leafTemplate('lists', input.value) : { ...items, type: input.value.trim() };
    write(next);
  });
  for (const p of lists[items.type]?.params || []) {
    const param = paramInput(p, items[p.name], (value) => {
      const next = { ...items };
      if (value === undefined) delete next[p.name];
      else next[p.name] = value;
      write(next);
    });
    param.dataset.param = p.name;
    field(box, `${p.name} (${p.type})`, param, p.required);
  }
}

/** A forEach's `max`: a positive integer; anything else is refused where it was typed. */
function maxEditor(box, at, n) {
  const i = numberInput(n.max, true);
  i.dataset.field = 'max';
  i.min = '1';
  field(box, 'max (most items)', i, true).addEventListener('change', () => {
    const v = Number(i.value);
    const ok = i.value.trim() !== '' && Number.isInteger(v) && v >= 1;
    i.classList.toggle('bad', !ok);
    i.title = ok ? '' : 'max is a positive integer: the most items the loop holds';
    if (!ok) return status(`max: ${i.title}`, true);
    setField(at, 'max', v);
  });
}

/**
 * The arms of an `if` (branches) or `match` (cases, with their keys) as a
 * list: each arm moves up or down or goes; new arms, and the `else` or
 * `default`. A case's keys are checked as typed (parseKeys) and written
 * only when they read.
 */
function armsEditor(box, at, n) {
  const list = isIf(n) ? 'branches' : 'cases';
  const arms = Array.isArray(n[list]) ? n[list] : [];
  box.appendChild(html('h4', {}, list === 'branches' ? 'Branches (the first whose condition holds runs)' : `Cases of ${leafName(n.value)}`));
  const ol = html('ol', { class: 'arms', 'data-arms': list });
  arms.forEach((a, i) => {
    const li = html('li', { 'data-arm': String(i) });
    if (list === 'branches') {
      const cond = isObj(a?.if) ? label(a.if) : '?';
      const then = isObj(a?.then) ? label(a.then) : '?';
      const go = html('a', { href: '#', title: 'Select this branch' }, `if ${shorten(cond)} → ${shorten(then)}`);
      go.addEventListener('click', (e) => {
        e.preventDefault();
        select(join(at, `branches[${i}].then`));
      });
      li.appendChild(go);
    } else {
      const keys = html('input', { type: 'text', 'data-when': String(i), title: 'keys: words, whole numbers, true or false, separated by commas; quote a key to keep it a word' });
      keys.value = keysText(a?.when);
      keys.addEventListener('change', () => {
        const parsed = parseKeys(keys.value);
        keys.classList.toggle('bad', !!parsed.error);
        keys.title = parsed.error || '';
        if (parsed.error) return status(`case ${i + 1}: ${parsed.error}`, true);
        edit((d) => {
          get(d, at).cases[i].when = parsed.when;
        });
      });
      li.append(keys, html('span', { class: 'hint' }, ` → ${shorten(isObj(a?.child) ? label(a.child) : '?')}`));
    }
    const button = (op, text, title, action) => {
      const b = html('button', { 'data-op': op, title }, text);
      b.addEventListener('click', action);
      li.appendChild(b);
    };
    const slot = list === 'branches' ? 'then' : 'child';
    const path = join(at, `${list}[${i}].${slot}`);
    button('up', '↑', 'Move up (Alt+↑ on its node)', () => {
      ed.selected = path;
      moveBy(-1);
    });
    button('down', '↓', 'Move down (Alt+↓ on its node)', () => {
      ed.selected = path;
      moveBy(1);
    });
    button('delete', '✕', 'Delete this arm and its node', () => edit((d) => remove(d, path), at));
    ol.appendChild(li);
  });
  box.appendChild(ol);
  const add = html('button', { 'data-op': 'add-arm' }, list === 'branches' ? '+ branch' : '+ case');
  add.addEventListener('click', () =>
    edit((d) => {
      const owner = get(d, at);
      if (!Array.isArray(owner[list])) owner[list] = [];
      owner[list].push(armFor(owner, list, template('sequence')));
      return { select: armPath(at, list, owner[list].length - 1) };
    }),
  );
  box.appendChild(add);
  const last = list === 'branches' ? 'else' : 'default';
  const toggle = html('button', { 'data-op': `toggle-${last}` }, isObj(n[last]) ? `✕ ${last}` : `+ ${last}`);
  toggle.addEventListener('click', () =>
    edit((d) => {
      const owner = get(d, at);
      if (isObj(owner[last])) {
        delete owner[last];
        return { select: at };
      }
      owner[last] = template('sequence');
      return { select: join(at, last) };
    }),
  );
  box.appendChild(toggle);
}

function renderProperties() {
  const box = $('#properties');
  box.replaceChildren();
  const doc = ed.viewing === null ? ed.doc : ed.library[ed.viewing];
  const at = ed.selected;
  const n = get(doc, at);
  if (!isObj(n)) {
    box.appendChild(html('p', { class: 'hint' }, 'Select a node to edit it.'));
    return;
  }
  box.appendChild(html('h3', {}, `${BtDraw.ICONS[n.type] || '•'} ${n.type}`));
  box.appendChild(html('p', { class: 'hint' }, at === '' ? 'the root' : at));
  if (ed.viewing === null) kindChooser(box, at, n);
  for (const msg of (ed.viewing === null && ed.problemsAt?.get(at)) || []) {
    box.appendChild(html('p', { class: 'node-problem' }, `⚠ ${msg}`));
  }
  if (ed.viewing !== null) {
    box.appendChild(html('pre', {}, JSON.stringify(n, null, 2)));
    return;
  }
  const kind = ed.palette.kinds.find((k) => k.type === n.type);
  const text = (key, placeholder) => {
    const i = html('input', { type: 'text', placeholder: placeholder || '', 'data-field': key });
    i.value = n[key] ?? '';
    field(box, key, i, false).addEventListener('change', () => setField(at, key, i.value === '' ? undefined : i.value));
  };
  text('name', 'shown in views and traces');
  for (const f of kind ? kind.fields : []) {
    if (f === 'count' || f === 'seconds' || f === 'success' || f === 'failure') {
      const integer = f !== 'seconds';
      const i = numberInput(n[f], integer);
      i.dataset.field = f;
      field(box, f, i, f === 'count' || f === 'seconds').addEventListener('change', () => setField(at, f, readNumber(i, integer)));
    } else if (f === 'label') {
      text('label', 'a loop label for break and continue');
    } else if (f === 'policy') {
      const s = html('select', { 'data-field': 'policy' });
      for (const v of ['', 'requireAll', 'requireOne']) s.appendChild(html('option', { value: v }, v || '(thresholds)'));
      s.value = n.policy ?? '';
      field(box, 'policy', s, false).addEventListener('change', () => setField(at, 'policy', s.value || undefined));
    } else if (f === 'subtreeId') {
      const s = html('select', { 'data-field': 'subtreeId' });
      const ids = Object.keys(ed.library);
      if (!ids.includes(n.subtreeId)) s.appendChild(html('option', { value: n.subtreeId ?? '' }, `${n.subtreeId ?? ''} (not in the library)`));
      for (const id of ids) s.appendChild(html('option', { value: id }, id));
      s.value = n.subtreeId ?? '';
      field(box, 'subtreeId', s, true).addEventListener('change', () => setField(at, 'subtreeId', s.value));
      const open = html('button', {}, 'Open subtree');
      open.addEventListener('click', () => openSubtree(n.subtreeId));
      box.appendChild(open);
    } else if (f === 'condition' && (n.type === 'condition' || n.type === 'waitUntil')) {
      leafEditor(box, at, n, 'condition');
    } else if (f === 'action' && n.type === 'action') {
      leafEditor(box, at, n, 'action');
    } else if (f === 'items' && (n.type === 'forEach' || n.type === 'pick')) {
      itemsEditor(box, at, n);
    } else if (f === 'max' && (n.type === 'forEach' || n.type === 'pick')) {
      maxEditor(box, at, n);
    } else if (f === 'scores' && n.type === 'utility') {
      scoresEditor(box, n.scores, (scores) => setField(at, 'scores', scores));
    } else if (f === 'score' && n.type === 'pick') {
      pickScoreEditor(box, n.score, (score) => setField(at, 'score', score));
    }
  }
  if (isIf(n) || isMatch(n)) armsEditor(box, at, n);
  // Everything else (weights, hooks, ...): the node's own JSON, children left out.
  const own = { ...n };
  for (const s of ['children', 'child']) delete own[s];
  const area = html('textarea', { 'data-field': 'json', spellcheck: 'false' });
  area.value = JSON.stringify(own, null, 2);
  field(box, 'JSON of this node (children kept)', area, false);
  const apply = html('button', {}, 'Apply JSON');
  apply.addEventListener('click', () => {
    let next;
    try {
      next = JSON.parse(area.value);
    } catch (e) {
      status(`not JSON: ${e.message}`, true);
      return;
    }
    edit((d) => {
      const old = get(d, at);
      if (old.children !== undefined) next.children = old.children;
      if (old.child !== undefined) next.child = old.child;
      if (at === '') return { doc: next };
      const { obj, key } = parentRef(d, at);
      obj[key] = next;
    });
  });
  box.appendChild(apply);
}

// ---------------------------------------------------------------- drawing

function redraw() {
  const doc = ed.viewing === null ? ed.doc : ed.library[ed.viewing];
  const nodes = walk(doc);
  ed.nodes = nodes;
  $('#tree').classList.toggle('readonly', ed.viewing !== null);
  const vp = $('#viewport');
  vp.replaceChildren();
  if (!nodes.size) {
    renderProperties();
    return;
  }
  const labelOf = (p) => shorten(label(nodes.get(p).node));
  ed.layout = BtDraw.layout('', (p) => nodes.get(p).kids, labelOf);
  const edges = svgEl('g', { class: 'edges' }, vp);
  const boxes = svgEl('g', { class: 'nodes' }, vp);
  for (const p of ed.layout.order) {
    const e = nodes.get(p), pos = ed.layout.pos.get(p);
    if (e.parent !== null) BtDraw.edge(edges, ed.layout.pos.get(e.parent), pos);
    const g = BtDraw.box(boxes, pos, e.node.type, labelOf(p), `${p || '(root)'}: ${fullLabel(e.node)}`, {
      class: `node${p === ed.selected ? ' selected' : ''}`,
      'data-path': p,
    });
    svgEl('text', { class: 'warn', x: pos.w - 16, y: BOX_H / 2 }, g);
  }
  if (ed.viewing === null) paintProblems();
  else renderProperties();
  paintFound();
  paintDivergence();
  paintRun();
}

/** The paths of the nodes whose label, name or type contains the find box's text, in tree order. */
function found() {
  const q = $('#find').value.trim().toLowerCase();
  if (!q || !ed.layout) return [];
  return ed.layout.order.filter((p) => {
    const n = ed.nodes.get(p).node;
    return [fullLabel(n), n.type].some((t) => String(t).toLowerCase().includes(q));
  });
}
/** Marks the nodes found (class found; #find[data-found] counts them). */
function paintFound() {
  const hits = new Set(found());
  for (const g of all('#viewport .node')) g.classList.toggle('found', hits.has(g.dataset.path));
  $('#find').dataset.found = String(hits.size);
}
/** Selects the next node found after the selection (the first after the last). */
function findNext() {
  const hits = found();
  if (!hits.length) return status(`no node matches ${JSON.stringify($('#find').value.trim())}`, true);
  const order = ed.layout.order;
  const here = order.indexOf(ed.selected);
  select(hits.find((p) => order.indexOf(p) > here) ?? hits[0]);
  status(`${hits.length} found`);
}

function select(path) {
  ed.selected = path;
  for (const g of all('#viewport .node')) g.classList.toggle('selected', g.dataset.path === path);
  reveal(path);
  renderProperties();
}

/** Whether the whole box of the node at `path` (with a margin) lies in a tree area of `W` by `H`. */
function inView(path, W, H) {
  const p = ed.layout?.pos.get(path);
  if (!p) return false;
  const z = ed.zoom, m = 10;
  const left = z.x + (p.x - p.w / 2) * z.s, top = z.y + p.y * z.s;
  return left >= m && top >= m && left + p.w * z.s <= W - m && top + BOX_H * z.s <= H - m;
}
/** Pans so that the whole box of the node at `path` is in view (centred in it when it was not). */
function reveal(path) {
  const p = ed.layout?.pos.get(path);
  const svg = $('#tree');
  const W = svg.clientWidth, H = svg.clientHeight;
  if (!p || inView(path, W, H)) return;
  const z = ed.zoom;
  z.x = W / 2 - p.x * z.s;
  z.y = H / 2 - (p.y + BOX_H / 2) * z.s;
  applyZoom();
}
/**
 * Keeps the selection in view when the tree's area changes size (the
 * preview's lanes open below it, the status line wraps the toolbar): the
 * selected node, if it was whole in the old area, is panned into the new one.
 */
function keepSelectionInView() {
  const svg = $('#tree');
  let W = svg.clientWidth, H = svg.clientHeight;
  new ResizeObserver(() => {
    const wasInView = inView(ed.selected, W, H);
    W = svg.clientWidth;
    H = svg.clientHeight;
    if (wasInView) reveal(ed.selected);
  }).observe(svg);
}

function applyZoom() {
  const z = ed.zoom;
  $('#viewport').setAttribute('transform', `translate(${z.x},${z.y}) scale(${z.s})`);
}
/**
 * Fits the tree in its area. An area with no size yet (not laid out, or
 * hidden) is fitted once it has one, when its ResizeObserver first reports it.
 */
function fit() {
  const svg = $('#tree'), L = ed.layout;
  if (!L) return;
  const W = svg.clientWidth, H = svg.clientHeight, pad = 24;
  if (!W || !H) {
    fitOnceSized(svg);
    return;
  }
  const s = Math.min((W - 2 * pad) / L.width, (H - 2 * pad) / (L.height + 12), 1.5);
  ed.zoom = { s, x: (W - L.width * s) / 2, y: pad };
  applyZoom();
}

let fitPending = false;
function fitOnceSized(svg) {
  if (fitPending) return;
  fitPending = true;
  const sized = new ResizeObserver(() => {
    if (!svg.clientWidth || !svg.clientHeight) return;
    sized.disconnect();
    fitPending = false;
    fit();
  });
  sized.observe(svg);
}

// ---------------------------------------------------------------- preview

async function runPreview() {
  const r = await post('/api/edit/preview', { doc: ed.doc, picks: ed.picks, trace: ed.traceText });
  const box = $('#preview');
  box.hidden = false;
  const text = $('#preview-text');
  if (!r.ok) {
    ed.preview = null;
    text.textContent = r.data.error + (r.data.problems ? ` (${r.data.problems.length} problems)` : '');
    text.className = '';
    $('#lane-recorded').replaceChildren();
    $('#lane-edited').replaceChildren();
    $('#unknown').replaceChildren();
    paintDivergence();
    return;
  }
  ed.preview = r.data;
  const d = r.data.divergence;
  text.textContent = d ? `First divergence: ${d.text}` : 'The edited tree does what the recording did, tick for tick.';
  text.className = d ? 'diverges' : '';
  box.dataset.divergeTick = d ? d.tick : '';
  box.dataset.divergePath = d ? d.path : '';
  lane($('#lane-recorded'), r.data.recorded, d);
  lane($('#lane-edited'), r.data.edited, d);
  const ticks = [...$('#lane-edited').querySelectorAll('.cell')].map((c) => Number(c.dataset.tick));
  showRun(d ? d.tick : ticks[ticks.length - 1]);
  const unknown = $('#unknown');
  unknown.replaceChildren();
  if (r.data.unknown.length) unknown.appendChild(html('span', { class: 'hint' }, 'Not in the recording (pick what they return): '));
  for (const leaf of r.data.unknown) {
    const l = html('label', {}, `${leaf} `);
    const s = html('select', { 'data-leaf': leaf });
    for (const v of ['failure', 'success', 'running']) s.appendChild(html('option', { value: v }, v));
    s.value = ed.picks[leaf] || 'failure';
    s.addEventListener('change', () => {
      ed.picks[leaf] = s.value;
      runPreview();
    });
    l.appendChild(s);
    unknown.appendChild(l);
  }
  for (const note of r.data.notes || []) unknown.appendChild(html('p', { class: 'preview-note', 'data-path': note.path }, `⚠ ${note.text}`));
  paintDivergence();
}

/** One lane: the root's status at the end of each tick that starts in `trace`. */
function lane(box, trace, d) {
  box.replaceChildren();
  let tick = null;
  const cells = [];
  for (const e of trace.events) {
    if (e.event === 'tick_started') tick = e.tick;
    if (e.event === 'tick_finished' && tick !== null) cells.push([tick, e.status]);
  }
  const recordedFirst = ed.preview.recorded.events.find((e) => e.event === 'tick_started')?.tick ?? 1;
  const editedFirst = ed.preview.edited.events.find((e) => e.event === 'tick_started')?.tick ?? 1;
  const offset = trace === ed.preview.edited ? recordedFirst - editedFirst : 0;
  for (const [t, s] of cells.slice(0, 2000)) {
    const shown = t + offset;
    const c = html('span', { class: `cell ${s}${d && d.tick === shown ? ' diverge' : ''}`, 'data-tick': shown, title: `tick ${shown}: ${s} (click: the edited run at this tick)` });
    c.addEventListener('click', () => showRun(shown));
    box.appendChild(c);
  }
}

/**
 * Paints the edited run at tick `shown` (as numbered in the recording) on
 * the tree: each node's last status in that tick (data-run), idle when it
 * did not run.
 */
function showRun(shown) {
  ed.runTick = shown;
  paintRun();
}
function paintRun() {
  const p = ed.preview;
  const nodes = all('#viewport .node');
  for (const g of nodes) {
    g.classList.remove('idle', 'running', 'success', 'failure', 'halted');
    delete g.dataset.run;
  }
  for (const c of all('#preview .cell')) c.classList.toggle('shown', Number(c.dataset.tick) === ed.runTick);
  if (!p || ed.viewing !== null || ed.runTick === undefined) return;
  const first = (t) => t.events.find((e) => e.event === 'tick_started')?.tick ?? 1;
  const tick = ed.runTick - (first(p.recorded) - first(p.edited));
  const status = new Map();
  let inTick = false;
  for (const e of p.edited.events) {
    if (e.event === 'tick_started') inTick = e.tick === tick;
    else if (inTick && e.event === 'ticked') status.set(e.node, e.status);
    else if (inTick && e.event === 'halted') status.set(e.node, 'halted');
  }
  const byPath = new Map();
  p.paths.forEach((path, id) => byPath.set(path, status.get(id) || 'idle'));
  for (const g of nodes) {
    const run = byPath.get(g.dataset.path) || 'idle';
    g.dataset.run = run;
    g.classList.add(run);
  }
  $('#preview-tick').textContent = `The tree shows the edited run at tick ${ed.runTick}.`;
}

function paintDivergence() {
  const d = ed.viewing === null && ed.preview ? ed.preview.divergence : null;
  for (const g of all('#viewport .node')) g.classList.toggle('diverge', !!d && g.dataset.path === d.path);
  const notes = new Map(ed.viewing === null && ed.preview ? (ed.preview.notes || []).map((x) => [x.path, x.text]) : []);
  for (const g of all('#viewport .node')) {
    const note = notes.get(g.dataset.path);
    g.classList.toggle('note', !!note);
    if (note) g.dataset.note = note;
    else delete g.dataset.note;
  }
}

function openTrace(file) {
  const tooBig = traceBytesPastLimit(file.size, limits);
  if (tooBig !== null) {
    status(`${file.name} cannot be replayed against: ${tooBig}`, true);
    return;
  }
  const reader = new FileReader();
  reader.onload = () => {
    ed.traceText = String(reader.result);
    status(`replaying against ${file.name}`);
    runPreview();
  };
  reader.readAsText(file);
}

// ---------------------------------------------------------------- wiring

function wire() {
  const svg = $('#tree');
  let press = null;
  svg.addEventListener('pointerdown', (e) => {
    const g = e.target.closest('.node');
    press = { x: e.clientX, y: e.clientY, path: g ? g.dataset.path : null, zx: ed.zoom.x, zy: ed.zoom.y, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!press) return;
    const dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < 5) return;
    if (!press.moved) svg.setPointerCapture(e.pointerId); // a drag: follow it outside the svg too
    press.moved = true;
    if (press.path === null || ed.viewing !== null) {
      ed.zoom.x = press.zx + dx;
      ed.zoom.y = press.zy + dy;
      applyZoom();
      return;
    }
    for (const g of all('#viewport .node')) g.classList.toggle('dragging', g.dataset.path === press.path);
    const over = /** @type {SVGElement | null} */ (document.elementFromPoint(e.clientX, e.clientY)?.closest('.node'));
    for (const g of all('#viewport .node')) g.classList.toggle('drop-target', g === over && g.dataset.path !== press.path);
  });
  svg.addEventListener('pointerup', (e) => {
    if (!press) return;
    const p = press;
    press = null;
    for (const g of all('#viewport .node')) g.classList.remove('dragging', 'drop-target');
    if (!p.moved) {
      if (p.path !== null) select(p.path);
      svg.focus();
      return;
    }
    if (p.path === null || ed.viewing !== null) return;
    const over = /** @type {SVGElement | null} */ (document.elementFromPoint(e.clientX, e.clientY)?.closest('.node'));
    if (over && over.dataset.path !== p.path) moveTo(p.path, over.dataset.path);
  });
  svg.addEventListener('dblclick', (e) => {
    const g = e.target.closest('.node');
    const n = g && get(ed.doc, g.dataset.path);
    if (ed.viewing === null && n && n.type === 'subtree') openSubtree(n.subtreeId);
  });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    const r = svg.getBoundingClientRect();
    const f = Math.exp(-e.deltaY / 500), cx = e.clientX - r.left, cy = e.clientY - r.top;
    const z = ed.zoom, s = Math.min(8, Math.max(0.05, z.s * f));
    z.x = cx - ((cx - z.x) * s) / z.s;
    z.y = cy - ((cy - z.y) * s) / z.s;
    z.s = s;
    applyZoom();
  }, { passive: false });

  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  $('#cut').addEventListener('click', cutSelected);
  $('#copy').addEventListener('click', copySelected);
  $('#paste').addEventListener('click', paste);
  $('#duplicate').addEventListener('click', duplicateSelected);
  $('#delete').addEventListener('click', deleteSelected);
  $('#wrap').addEventListener('change', (e) => {
    if (e.target.value) wrapSelected(e.target.value);
    e.target.value = '';
  });
  $('#save').addEventListener('click', () => save(ed.name, false));
  $('#save-as').addEventListener('click', () => save($('#save-name').value.trim(), false));
  $('#force-save').addEventListener('click', () => save(ed.forceName, true));
  $('#force-cancel').addEventListener('click', () => ($('#force').hidden = true));
  $('#subtree-back').addEventListener('click', closeSubtree);
  $('#preview-run').addEventListener('click', runPreview);
  $('#open-trace').addEventListener('click', () => $('#trace-file').click());
  $('#trace-file').addEventListener('change', (e) => e.target.files[0] && openTrace(e.target.files[0]));
  $('#fit').addEventListener('click', fit);
  $('#find').addEventListener('input', paintFound);
  $('#find').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      findNext();
    } else if (e.key === 'Escape') {
      $('#find').value = '';
      paintFound();
      $('#tree').focus();
    }
  });
  const filter = $('#palette-filter');
  filter.addEventListener('input', filterPalette);
  filter.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      [...$('#palette').querySelectorAll('button')].find((b) => !b.hidden)?.click();
    } else if (e.key === 'Escape') {
      filter.value = '';
      filterPalette();
      $('#tree').focus();
    }
  });
  // Leaving with changes that were not saved asks first.
  window.addEventListener('beforeunload', (e) => {
    if (document.body.dataset.dirty === 'true') e.preventDefault();
  });
  // A recorded trace dropped anywhere on the page becomes the preview's recording.
  onDroppedFile(document, (file) => {
    if (file) openTrace(file);
  });

  document.addEventListener('keydown', (e) => {
    const typing = /** @type {Element} */ (e.target).matches('input, textarea, select');
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === 's') {
      e.preventDefault();
      save(ed.name, false);
      return;
    }
    if (mod && e.key.toLowerCase() === 'f') {
      e.preventDefault();
      $('#find').focus();
      $('#find').select();
      return;
    }
    if (typing) return;
    const key = e.key.toLowerCase();
    if (mod && key === 'z' && !e.shiftKey) undo();
    else if (mod && (key === 'y' || (key === 'z' && e.shiftKey))) redo();
    else if (mod && key === 'x') cutSelected();
    else if (mod && key === 'c') copySelected();
    else if (mod && key === 'v') paste();
    else if (mod && key === 'd') duplicateSelected();
    else if (e.key === 'Delete' || e.key === 'Backspace') deleteSelected();
    else if (e.altKey && (e.key === 'ArrowUp' || e.key === 'ArrowLeft')) moveBy(-1);
    else if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowRight')) moveBy(1);
    else if (e.key === 'ArrowUp' && ed.selected !== '') select(ed.nodes.get(ed.selected).parent);
    else if (e.key === 'ArrowDown') {
      const kids = ed.nodes.get(ed.selected)?.kids;
      if (kids && kids.length) select(kids[0]);
    } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const parent = ed.nodes.get(ed.selected)?.parent;
      if (parent === null || parent === undefined) return;
      const sibs = ed.nodes.get(parent).kids;
      const i = sibs.indexOf(ed.selected) + (e.key === 'ArrowLeft' ? -1 : 1);
      if (i >= 0 && i < sibs.length) select(sibs[i]);
    } else if (key === 'f') fit();
    else if (e.key === '/') $('#palette-filter').focus();
    else return;
    e.preventDefault();
  });
  window.addEventListener('resize', fit);
  keepSelectionInView();
}

window.btEditor = {
  docText: () => JSON.stringify(ed.doc),
  selected: () => ed.selected,
  recordingText: () => ed.traceText,
  // Every node's own label (without its name), in node-table order.
  labels: () => [...walk(ed.doc).values()].map((e) => label({ ...e.node, name: undefined })),
};
start();
