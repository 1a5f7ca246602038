// Search: the query tool's ranked results as a list the keyboard can walk
// (arrows move, Enter opens).

import { h, replace, status, errorText } from '../dom.js';
import { api } from '../api.js';
import { href, go } from '../router.js';

export function searchView(ctx) {
  ctx.setTitle('Search');
  const initial = ctx.params.get('q') || '';
  const input = h('input', {
    id: 'search-input', type: 'search', value: initial, autocomplete: 'off', spellcheck: 'false',
    placeholder: 'Search symbols (press / to focus)', 'aria-label': 'Search symbols',
    role: 'combobox', 'aria-controls': 'search-results', 'aria-expanded': 'false', 'aria-autocomplete': 'list',
    'data-autofocus': true,
  });
  const list = h('ol', { id: 'search-results', class: 'results', role: 'listbox', 'aria-label': 'Results' });
  const note = h('div', { class: 'search-note', 'aria-live': 'polite' });
  let items = [];
  let active = -1;
  let seq = 0;
  let timer = null;

  function setActive(i) {
    if (items.length === 0) return;
    active = (i + items.length) % items.length;
    items.forEach((li, j) => li.setAttribute('aria-selected', j === active ? 'true' : 'false'));
    input.setAttribute('aria-activedescendant', items[active].id);
    items[active].scrollIntoView({ block: 'nearest' });
  }

  async function run(q) {
    const mine = ++seq;
    const url = href(ctx.repo, 'search', { q });
    if (location.hash !== url) history.replaceState(null, '', url);
    if (!q.trim()) {
      replace(list);
      replace(note);
      items = [];
      input.setAttribute('aria-expanded', 'false');
      return;
    }
    replace(note, status('Searching…'));
    let res;
    try {
      res = await api.tool('query', { query: q, limit: 20 }, ctx.repo);
    } catch (err) {
      if (mine === seq) replace(note, status(errorText(err), 'error'));
      return;
    }
    if (mine !== seq || !ctx.isCurrent()) return;
    const results = (res && res.results) || [];
    items = results.map((r, i) => {
      const link = h('a', { href: href(ctx.repo, 's', r.uid), tabindex: '-1' },
        h('span', { class: 'res-name' }, r.name),
        h('span', { class: 'kind' }, r.kind));
      return h('li', { id: 'result-' + i, role: 'option', 'aria-selected': 'false', class: 'result', dataset: { uid: r.uid } },
        link,
        r.signature ? h('code', { class: 'res-sig' }, r.signature) : null,
        h('span', { class: 'res-path muted' }, `${r.filePath}:${r.startLine}`));
    });
    replace(list, items);
    active = -1;
    input.setAttribute('aria-expanded', items.length ? 'true' : 'false');
    input.removeAttribute('aria-activedescendant');
    const how = res.ranking ? ` (ranked by ${res.ranking})` : '';
    replace(note, status(results.length ? `${results.length} results${how}` : 'No symbol matches.'));
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => run(input.value), 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive(active + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(active - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      clearTimeout(timer);
      if (active >= 0 && items[active]) go(href(ctx.repo, 's', items[active].dataset.uid));
      else run(input.value);
    } else if (e.key === 'Escape') {
      input.value = '';
      run('');
    }
  });
  ctx.onCleanup(() => clearTimeout(timer));
  if (initial) run(initial);

  return h('div', { class: 'search-view' },
    h('h1', { class: 'visually-hidden' }, 'Search'),
    h('form', { role: 'search', class: 'search-form', onsubmit: (e) => e.preventDefault() }, input),
    note,
    list,
    h('p', { class: 'muted hint' }, 'Arrows move through the results, Enter opens one; / comes back here.'));
}
