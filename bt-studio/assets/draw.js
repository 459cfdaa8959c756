// behaved-studio's tree drawing, shared by the viewer (studio.js) and the editor
// (editor.js): the icons of the node kinds (from catalogue.js), the top-down layout and the SVG
// of one node's box and one edge. Each page keeps its own state and colours.
// @ts-check
import { catalogue } from './catalogue.js';
import * as Layout from './layout.js';
import { BOX_H, V_GAP, H_GAP, shorten, edgePath } from './layout.js';

// The node kinds' icons, from the runtime's catalogue (catalogue.js, written by the server).
const ICONS = Object.fromEntries(catalogue.kinds.map((k) => [k.type, k.icon]));
const SVG_NS = 'http://www.w3.org/2000/svg';
/**
 * An SVG element `name` with `attrs`, appended to `parent` if given.
 * @type {(name: string, attrs: Record<string, string | number>, parent?: Element) => SVGElement}
 */
const svgEl = (name, attrs, parent) => {
  const el = document.createElementNS(SVG_NS, name);
  for (const k in attrs) el.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(el);
  return el;
};
/**
 * The elements `selector` finds in the page (nodes of the tree, rows, cells,
 * buttons), each with its `dataset` and `classList`.
 * @param {string} selector
 * @returns {Array<HTMLElement | SVGElement>}
 */
const all = (selector) => /** @type {Array<HTMLElement | SVGElement>} */ ([...document.querySelectorAll(selector)]);
/**
 * An HTML element `name` with `attrs` and, if given, `text`.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} name
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
const html = (name, attrs, text) => {
  const el = document.createElement(name);
  for (const k in attrs || {}) el.setAttribute(k, String(attrs[k]));
  if (text !== undefined) el.textContent = text;
  return el;
};

const measure = (() => {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = '12px system-ui, sans-serif';
  return (text) => ctx.measureText(text).width;
})();

/** The width of a box labelled `label`: its icon, its text and the padding. */
const boxWidth = (label) => Math.max(70, 48 + measure(label));

/**
 * Top-down layout of the tree at `root` (see layout.js), `label(id)` being
 * a node's shown label, measured as the page draws it.
 */
/** @type {<Id>(root: Id, kids: (id: Id) => Id[], label: (id: Id) => string, options?: { maxWidth?: number, aspect?: number }) => ReturnType<typeof Layout.layout<Id>>} */
const layout = (root, kids, label, options = {}) => Layout.layout(root, kids, (id) => boxWidth(label(id)), options);

/**
 * The edge from the bottom of parent box `q` to the top of child box `p`, as SVG (see `edgePath`).
 * @param {Element} parent
 * @param {import('./layout.js').Place} q
 * @param {import('./layout.js').Place} p
 * @returns {SVGElement}
 */
function edge(parent, q, p) {
  return svgEl('path', { class: 'edge', d: edgePath(q, p) }, parent);
}

/**
 * One node's box at `p` (from `layout`): outline, box, icon and label, with `title` as its tooltip.
 * @param {Element} parent
 * @param {import('./layout.js').Place} p
 * @param {string} kind
 * @param {string} label
 * @param {string} title
 * @param {Record<string, string | number>} attrs
 * @returns {SVGElement}
 */
function box(parent, p, kind, label, title, attrs) {
  const g = svgEl('g', { ...attrs, transform: `translate(${p.x - p.w / 2},${p.y})` }, parent);
  svgEl('title', {}, g).textContent = title;
  svgEl('rect', { class: 'outline', x: -4, y: -4, width: p.w + 8, height: BOX_H + 8 }, g);
  svgEl('rect', { class: 'box', width: p.w, height: BOX_H }, g);
  svgEl('text', { class: 'icon', x: 8, y: BOX_H / 2 }, g).textContent = ICONS[kind] || '•';
  svgEl('text', { class: 'label', x: 26, y: BOX_H / 2 }, g).textContent = label;
  return g;
}

/**
 * Calls `open` with the first file dropped on `target` (the page), marking
 * the page (`body.dragging`) while a file is dragged over it.
 * @param {EventTarget} target
 * @param {(file: File | undefined) => void} open
 */
function onDroppedFile(target, open) {
  target.addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  target.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    open(/** @type {DragEvent} */ (e).dataTransfer.files[0]);
  });
}

export { ICONS, SVG_NS, svgEl, html, all, onDroppedFile, BOX_H, V_GAP, H_GAP, measure, shorten, layout, edge, edgePath, box };
