// The page: a header with the repository picker and the views' links, and
// one main region that the hash route fills.

import './app.css';
import { h, replace, status, errorText } from './dom.js';
import { api } from './api.js';
import { parse, href, go } from './router.js';
import { searchView } from './views/search.js';
import { symbolView, symbolAtCommitView } from './views/symbol.js';
import { graphView } from './views/graphview.js';
import { communitiesView, communityView } from './views/communities.js';
import { processesView, processView } from './views/processes.js';
import { cypherView } from './views/cypher.js';
import { historyView, fileView, commitView } from './views/history.js';

const views = {
  search: searchView,
  s: symbolView,
  at: symbolAtCommitView,
  g: graphView,
  communities: communitiesView,
  community: communityView,
  processes: processesView,
  process: processView,
  cypher: cypherView,
  history: historyView,
  file: fileView,
  commit: commitView,
};

const state = { repos: null, repo: null, cleanup: null };

const main = document.getElementById('main');
const picker = document.getElementById('repo-picker');
const nav = document.getElementById('views-nav');

const navItems = [
  ['search', 'Search'],
  ['communities', 'Communities'],
  ['processes', 'Processes'],
  ['cypher', 'Cypher'],
  ['history', 'History'],
];

function renderNav(repo, view) {
  const items = navItems.map(([v, label]) => {
    const current = v === view || (v === 'search' && (view === 's' || view === 'g' || view === 'at'))
      || (v === 'communities' && view === 'community') || (v === 'processes' && view === 'process')
      || (v === 'history' && (view === 'file' || view === 'commit'));
    return h('li', null, h('a', { href: repo ? href(repo, v) : '#/', 'aria-current': current ? 'page' : null }, label));
  });
  replace(nav, h('ul', null, items));
}

function renderPicker(repo) {
  const select = h('select', { id: 'repo-select', 'aria-label': 'Repository' });
  for (const r of state.repos || []) {
    const opt = h('option', { value: r.id }, r.name === r.id ? r.name : `${r.name} (${r.id})`);
    if (r.id === repo || r.name === repo) opt.selected = true;
    select.appendChild(opt);
  }
  select.addEventListener('change', () => go(href(select.value, 'search')));
  replace(picker, h('label', { for: 'repo-select', class: 'visually-hidden' }, 'Repository'), select);
}

async function loadRepos() {
  if (state.repos) return state.repos;
  const data = await api.repos();
  state.repos = (data && data.repos) || [];
  return state.repos;
}

function homeView(ctx) {
  const repos = state.repos || [];
  if (repos.length === 0) {
    return h('div', null, h('h1', null, 'No repository indexed'),
      h('p', null, 'Run ', h('code', null, 'gitnexus analyze'), ' in a repository, then reload this page.'));
  }
  const list = h('ul', { class: 'repo-list' }, repos.map((r) => {
    const st = r.stats || {};
    return h('li', null,
      h('a', { href: href(r.id, 'search') }, r.name),
      h('span', { class: 'muted' }, ` ${st.files || 0} files, ${st.nodes || 0} symbols, ${st.communities || 0} communities, ${st.processes || 0} processes`));
  }));
  ctx.setTitle('Repositories');
  return h('div', null, h('h1', { tabindex: '-1' }, 'Repositories'), list);
}

let renderSeq = 0;

async function render() {
  const seq = ++renderSeq;
  if (state.cleanup) {
    try { state.cleanup(); } catch (err) { /* a view's cleanup must not stop the next one */ }
    state.cleanup = null;
  }
  const route = parse(location.hash);
  try {
    await loadRepos();
  } catch (err) {
    replace(main, status('Could not list the repositories: ' + errorText(err), 'error'));
    return;
  }
  if (seq !== renderSeq) return;
  if (!route.repo && state.repos.length === 1) {
    history.replaceState(null, '', href(state.repos[0].id, 'search'));
    return render();
  }
  state.repo = route.repo;
  renderPicker(route.repo);
  renderNav(route.repo, route.view);
  const ctx = {
    repo: route.repo,
    args: route.args,
    params: route.params,
    setTitle: (t) => { document.title = t + ' · GitNexus'; },
    onCleanup: (fn) => { state.cleanup = fn; },
    isCurrent: () => seq === renderSeq,
  };
  const view = route.repo ? views[route.view] : homeView;
  if (!view) {
    replace(main, h('h1', null, 'Not found'), status('No view named ' + route.view + '.', 'error'));
    return;
  }
  try {
    const el = view(ctx);
    replace(main, el);
  } catch (err) {
    replace(main, status(errorText(err), 'error'));
  }
  // After a navigation, focus goes to the view's first field or heading,
  // as a screen reader expects; on the first load only to a field.
  const target = main.querySelector('[data-autofocus]') || (moveFocus ? main.querySelector('h1') : null);
  {
    if (target) {
      if (!target.hasAttribute('tabindex') && !target.matches('input, textarea, select, button, a')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: false });
    }
  }
  moveFocus = true;
}

let moveFocus = false;

// Only #/… is a route; another hash (an in-page anchor) leaves the view alone.
window.addEventListener('hashchange', () => {
  if (location.hash === '' || location.hash.startsWith('#/')) render();
});

// The skip link moves the focus to the view without touching the route.
document.querySelector('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});

// "/" focuses the search box (or opens the search view) unless the user is typing.
document.addEventListener('keydown', (e) => {
  if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  if (t && (t.matches('input, textarea, select') || t.isContentEditable)) return;
  e.preventDefault();
  const box = document.getElementById('search-input');
  if (box) {
    box.focus();
    box.select();
  } else if (state.repo) {
    go(href(state.repo, 'search'));
  }
});

window.addEventListener('unhandledrejection', (e) => {
  replace(main, status(errorText(e.reason), 'error'));
});

render();
