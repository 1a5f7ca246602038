// The Cypher console: a query, its table, and its graph when the answer
// holds nodes and edges.

import { h, replace, status, errorText } from '../dom.js';
import { api } from '../api.js';
import { href, go } from '../router.js';
import { GraphCanvas, graphBox, webglAvailable } from '../graph.js';

const EXAMPLE = 'MATCH (f:Function)<-[:CALLS]-(c)\nRETURN f.name AS name, count(c) AS callers\nORDER BY callers DESC LIMIT 10';

let lastQuery = null;

function cell(repo, v) {
  if (v === null || v === undefined) return h('span', { class: 'muted' }, 'null');
  if (typeof v === 'object' && !Array.isArray(v) && (v.id || v.uid) && (v.name || v.label)) {
    return h('a', { href: href(repo, 's', v.id || v.uid) }, v.name || v.label);
  }
  if (typeof v === 'object') return h('code', null, JSON.stringify(v));
  return String(v);
}

export function cypherView(ctx) {
  ctx.setTitle('Cypher');
  const area = h('textarea', { id: 'cypher-query', rows: '6', spellcheck: 'false', 'aria-label': 'Cypher query', 'data-autofocus': true },
    ctx.params.get('q') || lastQuery || EXAMPLE);
  const run = h('button', { type: 'submit', id: 'cypher-run' }, 'Run');
  const out = h('div', { id: 'cypher-result', 'aria-live': 'polite' });
  const box = graphBox('Graph of the answer', null);
  box.hidden = true;
  let canvas = null;
  ctx.onCleanup(() => canvas && canvas.destroy());

  async function execute() {
    const q = area.value;
    lastQuery = q;
    replace(out, status('Running…'));
    run.disabled = true;
    let data;
    try {
      data = await api.cypher(ctx.repo, q, 500);
    } catch (err) {
      replace(out, h('pre', { class: 'status status-error', role: 'alert' }, errorText(err)));
      return;
    } finally {
      run.disabled = false;
    }
    if (!ctx.isCurrent()) return;
    const cols = data.columns || [];
    const rows = data.rows || [];
    replace(out,
      h('p', { class: 'muted' }, `${rows.length} rows${data.truncated ? ' (cut; add LIMIT or narrow the query)' : ''}`),
      h('div', { class: 'table-wrap' }, h('table', { class: 'data cypher-table' },
        h('caption', { class: 'visually-hidden' }, 'Query result'),
        h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', null, rows.map((r) => h('tr', null, (Array.isArray(r) ? r : cols.map((c) => r[c])).map((v) => h('td', null, cell(ctx.repo, v)))))))));
    const g = data.graph || {};
    if ((g.nodes || []).length && webglAvailable()) {
      box.hidden = false;
      if (canvas) canvas.destroy();
      replace(box);
      canvas = new GraphCanvas(box, { onClickNode: (n) => go(href(ctx.repo, 's', n)) });
      canvas.setData(g.nodes, g.edges || [], null);
    } else {
      box.hidden = true;
    }
  }

  const form = h('form', { class: 'cypher-form', onsubmit: (e) => { e.preventDefault(); execute(); } },
    h('label', { for: 'cypher-query' }, 'Query (Ctrl+Enter runs it)'), area, h('div', null, run));
  area.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      execute();
    }
  });
  return h('article', null, h('h1', { tabindex: '-1' }, 'Cypher'), form, out, box);
}
