// The neighbourhood of a symbol as an interactive graph: controls for
// depth, edge types, minimum confidence, tests and the node cap; a click on
// a node (or its Expand button in the list) adds that node's neighbours.

import { h, replace, status, errorText } from './dom.js';
import { api } from './api.js';
import { href } from './router.js';
import { GraphCanvas, graphBox, webglAvailable } from './graph.js';

export const EDGE_TYPES = ['CALLS', 'IMPORTS', 'EXTENDS', 'IMPLEMENTS', 'HAS_METHOD', 'REFERENCES'];
const DEFAULT_TYPES = ['CALLS', 'IMPORTS', 'EXTENDS', 'IMPLEMENTS'];

let panelSeq = 0;

// neighbourhoodPanel returns {el, destroy}. opts: {repo, uid, params (URLSearchParams), onParams(obj), big}.
export function neighbourhoodPanel(opts) {
  const id = 'nb' + ++panelSeq;
  const p = opts.params || new URLSearchParams();
  const state = {
    depth: clampInt(p.get('depth'), 1, 3, 1),
    types: p.get('types') ? p.get('types').split(',').filter((t) => t) : DEFAULT_TYPES.slice(),
    minConfidence: clampNum(p.get('minConfidence'), 0, 1, 0),
    hideTests: p.get('hideTests') === '1' || p.get('hideTests') === 'true',
    limit: clampInt(p.get('limit'), 10, 5000, 300),
  };

  const depth = h('select', { id: id + '-depth' }, [1, 2, 3].map((d) => h('option', { value: d, selected: d === state.depth }, String(d))));
  const typeBoxes = EDGE_TYPES.map((t) => {
    const box = h('input', { type: 'checkbox', id: `${id}-t-${t}`, value: t, checked: state.types.includes(t) });
    return h('label', { class: 'check', for: `${id}-t-${t}` }, box, ' ' + t);
  });
  const minConf = h('input', { id: id + '-conf', type: 'number', min: '0', max: '1', step: '0.05', value: state.minConfidence, inputmode: 'decimal' });
  const hideTests = h('input', { id: id + '-tests', type: 'checkbox', checked: state.hideTests });
  const limit = h('input', { id: id + '-limit', type: 'number', min: '10', max: '5000', step: '10', value: state.limit, inputmode: 'numeric' });
  const form = h('form', { class: 'graph-controls', 'aria-label': 'Graph controls' },
    h('label', { for: id + '-depth' }, 'Depth ', depth),
    h('fieldset', null, h('legend', null, 'Edges'), typeBoxes),
    h('label', { for: id + '-conf' }, 'Min confidence ', minConf),
    h('label', { class: 'check', for: id + '-tests' }, hideTests, ' Hide tests'),
    h('label', { for: id + '-limit' }, 'Max nodes ', limit),
    h('button', { type: 'submit' }, 'Apply'));

  const box = graphBox('Neighbourhood graph of the symbol; the list below holds the same nodes', opts.big ? 'big' : null);
  const note = h('div', { class: 'graph-status', 'aria-live': 'polite' });
  const selection = h('div', { class: 'graph-selection', 'aria-live': 'polite' });
  const list = h('ul', { class: 'node-list' });
  const details = h('details', { class: 'node-list-box' }, h('summary', null, 'Nodes as a list'), list);
  const el = h('div', { class: 'graph-panel' }, form, note, box, selection, details);

  const canvas = webglAvailable() ? new GraphCanvas(box, { onClickNode: (n) => { select(n); expand(n); } }) : null;
  const fallback = new Map();
  const expanded = new Set();

  function readForm() {
    state.depth = clampInt(depth.value, 1, 3, 1);
    state.types = typeBoxes.map((l) => l.querySelector('input')).filter((b) => b.checked).map((b) => b.value);
    state.minConfidence = clampNum(minConf.value, 0, 1, 0);
    state.hideTests = hideTests.checked;
    state.limit = clampInt(limit.value, 10, 5000, 300);
  }

  function params(uid, d) {
    return {
      repo: opts.repo, uid, depth: d, types: state.types.join(','),
      minConfidence: state.minConfidence || undefined, hideTests: state.hideTests ? 'true' : undefined, limit: state.limit,
    };
  }

  function count() {
    return canvas ? canvas.graph.order : fallback.size;
  }

  function describe(data) {
    const n = count();
    const edges = canvas ? canvas.graph.size : (data.edges || []).length;
    const cut = data.truncated ? ` — cut at ${state.limit} nodes; raise "Max nodes" or lower the depth` : '';
    replace(note, status(`${n} nodes, ${edges} edges${cut}`));
  }

  function renderList() {
    const nodes = canvas ? canvas.nodes() : [...fallback.values()];
    nodes.sort((a, b) => (a.name || '').localeCompare(b.name || '') || a.id.localeCompare(b.id));
    replace(list, nodes.map((n) => h('li', null,
      h('a', { href: href(opts.repo, 's', n.id) }, n.name || n.id),
      h('span', { class: 'kind' }, n.kind || ''),
      expanded.has(n.id) ? null : h('button', { type: 'button', class: 'small', onclick: () => expand(n.id) }, 'Expand', h('span', { class: 'visually-hidden' }, ' ' + (n.name || n.id))))));
  }

  function select(node) {
    const a = canvas ? canvas.nodeAttributes(node) : fallback.get(node);
    if (!a) return;
    if (canvas) canvas.select(node);
    replace(selection,
      h('strong', null, a.label || a.name || node), ' ', h('span', { class: 'kind' }, a.kind || ''), ' ',
      a.filePath ? h('span', { class: 'muted' }, a.filePath) : null, ' ',
      h('a', { href: href(opts.repo, 's', node) }, 'Open symbol'));
  }

  async function loadAll() {
    if (state.types.length === 0) {
      replace(note, status('Choose at least one kind of edge.', 'error'));
      return;
    }
    replace(note, status('Loading the graph…'));
    expanded.clear();
    let data;
    try {
      data = await api.graph('neighbourhood', params(opts.uid, state.depth));
    } catch (err) {
      replace(note, status(errorText(err), 'error'));
      return;
    }
    const center = typeof data.center === 'string' ? data.center : (data.center && data.center.id) || opts.uid;
    expanded.add(center);
    if (canvas) canvas.setData(data.nodes || [], data.edges || [], center);
    else {
      fallback.clear();
      for (const n of data.nodes || []) fallback.set(n.id, n);
      performance.mark('graph-drawn');
    }
    describe(data);
    renderList();
  }

  async function expand(node) {
    if (expanded.has(node)) return;
    expanded.add(node);
    replace(note, status('Expanding…'));
    let data;
    try {
      data = await api.graph('neighbourhood', params(node, 1));
    } catch (err) {
      expanded.delete(node);
      replace(note, status(errorText(err), 'error'));
      return;
    }
    if (canvas) canvas.merge(data.nodes || [], data.edges || [], node);
    else for (const n of data.nodes || []) if (!fallback.has(n.id)) fallback.set(n.id, n);
    describe(data);
    renderList();
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    readForm();
    if (opts.onParams) opts.onParams(state);
    loadAll();
  });
  form.addEventListener('change', (e) => {
    if (e.target === limit || e.target === minConf) return; // typed values wait for Apply
    readForm();
    if (opts.onParams) opts.onParams(state);
    loadAll();
  });

  if (!canvas) box.appendChild(status('This browser has no WebGL: the nodes are listed below.'));
  loadAll();
  return { el, destroy: () => canvas && canvas.destroy(), count };
}

function clampInt(v, lo, hi, dflt) {
  const n = parseInt(v, 10);
  if (Number.isNaN(n)) return dflt;
  return Math.max(lo, Math.min(hi, n));
}

function clampNum(v, lo, hi, dflt) {
  const n = parseFloat(v);
  if (Number.isNaN(n)) return dflt;
  return Math.max(lo, Math.min(hi, n));
}
