// Communities: the map of clusters (size by symbols, links by weight) and
// one community's own graph.

import { h, replace, status, section, load, errorText } from '../dom.js';
import { api } from '../api.js';
import { href, go } from '../router.js';
import { GraphCanvas, graphBox, webglAvailable, colorFor } from '../graph.js';

export function communitiesView(ctx) {
  ctx.setTitle('Communities');
  const box = graphBox('Map of the communities; the table below lists them', 'big');
  const note = h('div', { 'aria-live': 'polite' });
  const table = h('div');
  let canvas = null;
  ctx.onCleanup(() => canvas && canvas.destroy());
  (async () => {
    replace(note, status('Loading…'));
    let data;
    try {
      data = await api.graph('communities', { repo: ctx.repo });
    } catch (err) {
      replace(note, status(errorText(err), 'error'));
      return;
    }
    if (!ctx.isCurrent()) return;
    const comms = (data.communities || []).slice().sort((a, b) => (b.symbols || 0) - (a.symbols || 0) || String(a.id).localeCompare(String(b.id)));
    replace(note, status(`${comms.length} communities${data.truncated ? ' (the largest shown)' : ''}`));
    if (webglAvailable() && comms.length) {
      canvas = new GraphCanvas(box, { onClickNode: (id) => go(href(ctx.repo, 'community', id)) });
      const maxSyms = Math.max(1, ...comms.map((c) => c.symbols || 1));
      canvas.setData(
        comms.map((c) => ({ id: String(c.id), name: `${c.label} (${c.symbols})`, kind: 'Community', size: 4 + 20 * Math.sqrt((c.symbols || 1) / maxSyms), color: colorFor(c.id) })),
        (data.links || []).map((l) => ({ src: String(l.src), dst: String(l.dst), type: 'LINK', weight: l.weight })),
        null);
    }
    replace(table, h('table', { class: 'data' },
      h('caption', { class: 'visually-hidden' }, 'Communities'),
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Community'), h('th', { scope: 'col', class: 'num' }, 'Symbols'), h('th', { scope: 'col', class: 'num' }, 'Files'))),
      h('tbody', null, comms.map((c) => h('tr', null,
        h('td', null, h('a', { href: href(ctx.repo, 'community', String(c.id)) }, c.label || String(c.id))),
        h('td', { class: 'num' }, String(c.symbols ?? '')),
        h('td', { class: 'num' }, String(c.files ?? '')))))));
  })();
  return h('article', null, h('h1', { tabindex: '-1' }, 'Communities'),
    h('p', { class: 'muted hint' }, 'Each circle is a community, sized by its symbols. Click one to open it.'),
    note, box, table);
}

export function communityView(ctx) {
  const id = ctx.args[0];
  ctx.setTitle('Community ' + id);
  const box = graphBox('Graph of the community; the list below holds its symbols', 'big');
  const note = h('div', { 'aria-live': 'polite' });
  const list = h('div');
  let canvas = null;
  ctx.onCleanup(() => canvas && canvas.destroy());
  (async () => {
    replace(note, status('Loading…'));
    let data;
    try {
      data = await api.graph('community', { repo: ctx.repo, id, limit: 500 });
    } catch (err) {
      replace(note, status(errorText(err), 'error'));
      return;
    }
    if (!ctx.isCurrent()) return;
    const nodes = data.nodes || [];
    replace(note, status(`${nodes.length} symbols, ${(data.edges || []).length} edges${data.truncated ? ' (cut: the best connected shown)' : ''}`));
    if (webglAvailable() && nodes.length) {
      canvas = new GraphCanvas(box, { onClickNode: (n) => go(href(ctx.repo, 's', n)) });
      canvas.setData(nodes.map((n) => Object.assign({}, n, { community: n.kind })), data.edges || [], null);
    }
    const sorted = nodes.slice().sort((a, b) => (a.name || '').localeCompare(b.name || '') || a.id.localeCompare(b.id));
    replace(list, h('ul', { class: 'sym-list' }, sorted.map((n) => h('li', null,
      h('a', { href: href(ctx.repo, 's', n.id) }, n.name || n.id), ' ', h('span', { class: 'kind' }, n.kind || ''), ' ',
      h('span', { class: 'muted' }, n.filePath || '')))));
  })();
  return h('article', null,
    h('h1', { tabindex: '-1' }, 'Community ', communityLabel(id)),
    h('p', null, h('a', { href: href(ctx.repo, 'communities') }, '← All communities')),
    note, box, section('Symbols', 'community-symbols', list));
}

function communityLabel(id) {
  return h('span', null, String(id).replace(/^Community:/, ''));
}
