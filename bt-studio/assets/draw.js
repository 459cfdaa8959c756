// bt-studio's tree drawing, shared by the viewer (studio.js) and the editor
// (editor.js): the icons of the node kinds, the top-down layout and the SVG
// of one node's box and one edge. Each page keeps its own state and colours.
'use strict';

window.BtDraw = (() => {
  const ICONS = {
    sequence: '→', selector: '?', reactiveSequence: '⇢', reactiveSelector: '??', parallel: '⇉',
    parallelMain: '⇶', random: '⚄', weighted: '⚖', shuffle: '⤮', if: '⑂', reactiveIf: '⑂',
    match: '≡', reactiveMatch: '≡', loop: '∞', repeater: '⟲', retry: '↺', while: '⟳',
    untilFail: '⟳', untilSuccess: '⟳', break: '⇥', continue: '↷', inverter: '¬',
    succeeder: '⊤', forceFailure: '⊥', timeout: '◴', delay: '◶', cooldown: '❄', limit: '#',
    runOnce: '1×', abortIf: '⊘', scope: '{}', success: '⊤', failure: '⊥', running: '…',
    wait: '◷', condition: '◇', action: '▣', subtree: '⧉', sequenceAlways: '⇒', latch: '⊙',
    waitUntil: '◷', forEach: '∀',
  };
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const svgEl = (name, attrs, parent) => {
    const el = document.createElementNS(SVG_NS, name);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(el);
    return el;
  };
  const html = (name, attrs, text) => {
    const el = document.createElement(name);
    for (const k in attrs || {}) el.setAttribute(k, attrs[k]);
    if (text !== undefined) el.textContent = text;
    return el;
  };

  const BOX_H = 30, V_GAP = 46, H_GAP = 14, LABEL_MAX = 40;
  const measure = (() => {
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = '12px system-ui, sans-serif';
    return (text) => ctx.measureText(text).width;
  })();
  const shorten = (label) => (label.length > LABEL_MAX ? label.slice(0, LABEL_MAX - 1) + '…' : label);

  /**
   * Top-down layout: every subtree gets a band as wide as its widest row;
   * parents sit centred over it. `kids(id)` lists the shown children of a
   * node, `label(id)` its shown label. Returns the nodes in pre-order and
   * each one's centre x, top y, width and depth.
   */
  function layout(root, kids, label) {
    const w = new Map(), band = new Map();
    const order = [];
    const stack = [root];
    while (stack.length) {
      const id = stack.pop();
      order.push(id);
      const ks = kids(id);
      for (let i = ks.length - 1; i >= 0; i--) stack.push(ks[i]);
    }
    for (let j = order.length - 1; j >= 0; j--) {
      const id = order[j];
      w.set(id, Math.max(70, 48 + measure(label(id))));
      const ks = kids(id);
      let sum = 0;
      for (const c of ks) sum += band.get(c);
      if (ks.length) sum += H_GAP * (ks.length - 1);
      band.set(id, Math.max(w.get(id), sum));
    }
    const pos = new Map();
    let depthMax = 0;
    const place = [[root, 0, 0]];
    while (place.length) {
      const [id, left, depth] = place.pop();
      depthMax = Math.max(depthMax, depth);
      pos.set(id, { x: left + band.get(id) / 2, y: depth * (BOX_H + V_GAP), w: w.get(id), depth });
      const ks = kids(id);
      let sum = H_GAP * Math.max(0, ks.length - 1);
      for (const c of ks) sum += band.get(c);
      let x = left + (band.get(id) - sum) / 2;
      for (const c of ks) {
        place.push([c, x, depth + 1]);
        x += band.get(c) + H_GAP;
      }
    }
    return { order, pos, width: band.get(root), height: (depthMax + 1) * (BOX_H + V_GAP) - V_GAP };
  }

  /** The curve from the bottom of parent box `q` to the top of child box `p`. */
  function edge(parent, q, p) {
    const y0 = q.y + BOX_H, y1 = p.y, ym = (y0 + y1) / 2;
    return svgEl('path', { class: 'edge', d: `M${q.x},${y0} C${q.x},${ym} ${p.x},${ym} ${p.x},${y1}` }, parent);
  }

  /** One node's box at `p` (from `layout`): outline, box, icon and label, with `title` as its tooltip. */
  function box(parent, p, kind, label, title, attrs) {
    const g = svgEl('g', { ...attrs, transform: `translate(${p.x - p.w / 2},${p.y})` }, parent);
    svgEl('title', {}, g).textContent = title;
    svgEl('rect', { class: 'outline', x: -4, y: -4, width: p.w + 8, height: BOX_H + 8 }, g);
    svgEl('rect', { class: 'box', width: p.w, height: BOX_H }, g);
    svgEl('text', { class: 'icon', x: 8, y: BOX_H / 2 }, g).textContent = ICONS[kind] || '•';
    svgEl('text', { class: 'label', x: 26, y: BOX_H / 2 }, g).textContent = label;
    return g;
  }

  return { ICONS, SVG_NS, svgEl, html, BOX_H, V_GAP, H_GAP, measure, shorten, layout, edge, box };
})();
