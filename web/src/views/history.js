// History: commits per week, the hot spots of a window, a file's commits
// (following renames) and one commit with what depends on it now.

import { h, s, replace, status, section, load, errorText, fmtDate, shortHash } from '../dom.js';
import { api } from '../api.js';
import { href, go } from '../router.js';

// weekChart draws commits per week as SVG bars, one per week, labelled
// with the month at its first week.
function weekChart(repo, weeks) {
  const W = 720;
  const H = 160;
  const pad = 24;
  const max = Math.max(1, ...weeks.map((w) => w.commits || 0));
  const bw = (W - pad) / Math.max(1, weeks.length);
  const bars = weeks.map((w, i) => {
    const bh = ((w.commits || 0) / max) * (H - pad - 8);
    const label = `Week of ${w.week}: ${w.commits} commits, ${w.filesChanged || 0} files, ${w.symbolsChanged || 0} symbols`;
    // Each week is a link to its hot spots.
    return s('a', { href: href(repo, 'history', { since: w.week, until: addDays(w.week, 6) }), 'aria-label': label, class: 'week' },
      s('rect', { x: pad + i * bw, y: H - pad - bh, width: Math.max(1, bw - 1), height: Math.max(0, bh), class: 'bar' },
        s('title', null, label)));
  });
  const labels = [];
  let lastMonth = '';
  weeks.forEach((w, i) => {
    const m = String(w.week).slice(0, 7);
    if (m !== lastMonth && (labels.length === 0 || i * bw - labels[labels.length - 1].x > 60)) {
      labels.push({ x: i * bw, text: m });
    }
    lastMonth = m;
  });
  return s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': `Commits per week, at most ${max}` },
    s('line', { x1: pad, y1: H - pad, x2: W, y2: H - pad, class: 'axis' }),
    s('text', { x: 2, y: 12, class: 'tick' }, String(max)),
    bars,
    labels.map((l) => s('text', { x: pad + l.x, y: H - 6, class: 'tick' }, l.text)));
}

function addDays(day, n) {
  const t = Date.parse(day + 'T00:00:00Z');
  if (Number.isNaN(t)) return '';
  return new Date(t + n * 86400000).toISOString().slice(0, 10);
}

function hotspots(ctx, since, until) {
  return api.get('/api/v1/history/hotspots', { repo: ctx.repo, since, until, limit: 20 }).then((data) => {
    const files = data.files || [];
    const syms = data.symbols || [];
    return h('div', { class: 'columns' },
      h('div', null, h('h3', null, 'Files'), files.length === 0 ? h('p', { class: 'muted' }, 'No file changed in this window.')
        : h('table', { class: 'data' },
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'File'), h('th', { scope: 'col', class: 'num' }, 'Commits'), h('th', { scope: 'col', class: 'num' }, '+/−'))),
          h('tbody', null, files.map((f) => h('tr', null,
            h('td', null, h('a', { href: href(ctx.repo, 'file', f.path) }, f.path)),
            h('td', { class: 'num' }, String(f.commits)),
            h('td', { class: 'num' }, `+${f.additions || 0} −${f.deletions || 0}`)))))),
      h('div', null, h('h3', null, 'Symbols'), syms.length === 0 ? h('p', { class: 'muted' }, 'No symbol changed in this window.')
        : h('table', { class: 'data' },
          h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Symbol'), h('th', { scope: 'col', class: 'num' }, 'Commits'))),
          h('tbody', null, syms.map((sy) => h('tr', null,
            h('td', null, h('a', { href: href(ctx.repo, 's', sy.id) }, sy.name), ' ', h('span', { class: 'muted' }, sy.filePath || '')),
            h('td', { class: 'num' }, String(sy.commits))))))));
  });
}

export function historyView(ctx) {
  ctx.setTitle('History');
  const timeline = h('div');
  load(timeline, async () => {
    const data = await api.get('/api/v1/history/timeline', { repo: ctx.repo });
    const weeks = data.weeks || [];
    if (weeks.length === 0) return h('p', { class: 'muted' }, 'No commit in the indexed history.');
    const total = weeks.reduce((a, w) => a + (w.commits || 0), 0);
    return [h('p', { class: 'muted' }, `${total} commits over ${weeks.length} weeks, from ${weeks[0].week} to ${weeks[weeks.length - 1].week}`), weekChart(ctx.repo, weeks)];
  });
  const since = h('input', { type: 'date', id: 'hot-since', value: ctx.params.get('since') || '' });
  const until = h('input', { type: 'date', id: 'hot-until', value: ctx.params.get('until') || '' });
  const hot = h('div', { 'aria-live': 'polite', class: 'hot-result' });
  const hotForm = h('form', { class: 'inline-form', onsubmit: (e) => {
    e.preventDefault();
    history.replaceState(null, '', href(ctx.repo, 'history', { since: since.value, until: until.value }));
    load(hot, () => hotspots(ctx, since.value, until.value));
  } },
  h('label', { for: 'hot-since' }, 'Since ', since), h('label', { for: 'hot-until' }, 'Until ', until), h('button', { type: 'submit' }, 'Show'));
  load(hot, () => hotspots(ctx, since.value, until.value));

  const fileInput = h('input', { type: 'text', id: 'file-path', placeholder: 'path/to/file.go', 'aria-label': 'File path', spellcheck: 'false' });
  const commitInput = h('input', { type: 'text', id: 'commit-hash', placeholder: 'hash or revision', 'aria-label': 'Commit', spellcheck: 'false' });
  return h('article', null, h('h1', { tabindex: '-1' }, 'History'),
    section('Commits per week', 'timeline', timeline),
    section('Hot spots', 'hotspots', hotForm, hot),
    section('Look up', 'lookup',
      h('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); if (fileInput.value.trim()) go(href(ctx.repo, 'file', fileInput.value.trim())); } },
        h('label', { for: 'file-path' }, 'File '), fileInput, h('button', { type: 'submit' }, 'File history')),
      h('form', { class: 'inline-form', onsubmit: (e) => { e.preventDefault(); if (commitInput.value.trim()) go(href(ctx.repo, 'commit', commitInput.value.trim())); } },
        h('label', { for: 'commit-hash' }, 'Commit '), commitInput, h('button', { type: 'submit' }, 'Open commit'))));
}

export function fileView(ctx) {
  const path = ctx.args.join('/');
  ctx.setTitle(path);
  const out = h('div');
  load(out, async () => {
    const commits = await api.fileCommits(ctx.repo, path, { limit: 100 });
    if (!commits || commits.length === 0) return h('p', { class: 'muted' }, 'No indexed commit changed it.');
    const names = [...new Set(commits.map((c) => c.path))];
    return [
      names.length > 1 ? h('p', null, 'Known as: ', names.map((n, i) => [i ? ' ← ' : '', h('code', null, n)])) : null,
      h('ol', { class: 'commit-list' }, commits.map((c) => h('li', null,
        h('a', { href: href(ctx.repo, 'commit', c.hash) }, shortHash(c.hash)), ' ',
        h('span', { class: 'subject' }, String(c.message || '').split('\n')[0]), ' ',
        h('span', { class: 'muted' }, `${c.author || ''}, ${fmtDate(c.time)} · ${c.change_type || ''} +${c.additions || 0} −${c.deletions || 0}`),
        c.path !== path ? [' ', h('span', { class: 'muted' }, 'as '), h('code', null, c.path)] : null))),
    ];
  });
  return h('article', null, h('h1', { tabindex: '-1' }, h('span', { class: 'muted' }, 'File '), path), out);
}

function changeClass(c) {
  const k = String(c || '').charAt(0).toUpperCase();
  return 'chg chg-' + (k || 'M');
}

export function commitView(ctx) {
  const hash = ctx.args[0];
  ctx.setTitle('Commit ' + shortHash(hash));
  const title = h('h1', { tabindex: '-1' }, 'Commit ', shortHash(hash));
  const out = h('div');
  (async () => {
    replace(out, status('Loading…'));
    let r;
    try {
      r = await api.tool('get_commit_impact', { hash }, ctx.repo);
    } catch (err) {
      replace(out, status(errorText(err), 'error'));
      return;
    }
    if (!ctx.isCurrent()) return;
    const c = r.commit || {};
    replace(title, 'Commit ', c.shortHash || shortHash(hash));
    const callers = r.callers || {};
    const depths = Object.keys(callers.byDepth || {}).sort((a, b) => a - b);
    replace(out,
      h('p', { class: 'commit-subject' }, c.subject || ''),
      r.message && r.message !== c.subject ? h('pre', { class: 'commit-message' }, r.message) : null,
      h('p', { class: 'muted' }, `${c.author || ''} · ${fmtDate(c.date)} · ${c.hash || hash}`,
        (r.parents || []).length ? [' · parent ', (r.parents || []).map((p, i) => [i ? ', ' : '', h('a', { href: href(ctx.repo, 'commit', p) }, shortHash(p))])] : null),
      section(`Files (${r.totalFiles ?? (r.files || []).length})`, 'commit-files', h('ul', { class: 'sym-list' }, (r.files || []).map((f) => h('li', null,
        h('span', { class: changeClass(f.changeType) }, f.changeType || ''), ' ',
        h('a', { href: href(ctx.repo, 'file', f.atHead || f.path) }, f.path),
        f.oldPath ? h('span', { class: 'muted' }, ` (was ${f.oldPath})`) : null,
        h('span', { class: 'muted' }, ` +${f.additions || 0} −${f.deletions || 0}`))))),
      section(`Symbols (${r.totalSymbols ?? (r.symbols || []).length})`, 'commit-symbols', h('ul', { class: 'sym-list' }, (r.symbols || []).map((sy) => h('li', null,
        h('span', { class: changeClass(sy.change) }, sy.change || ''), ' ',
        sy.atHead ? h('a', { href: href(ctx.repo, 's', sy.uid) }, sy.name) : h('span', null, sy.name), ' ',
        h('span', { class: 'kind' }, sy.kind || ''), ' ', h('span', { class: 'muted' }, sy.path || ''), ' ',
        h('a', { href: href(ctx.repo, 'at', sy.atHead ? sy.uid : 'HistoricalSymbol:' + sy.uid, c.hash || hash), class: 'small-link' }, 'source then'))))),
      section('Depends on it now', 'commit-impact', depths.length === 0 ? h('p', { class: 'muted' }, 'Nothing depends on the symbols it changed.') : [
        h('p', null, h('span', { class: ['risk', 'risk-' + String(callers.risk || '').toLowerCase()] }, `Risk ${callers.risk || '?'}`), ' ',
          `${(callers.summary || {}).direct || 0} direct, ${(callers.summary || {}).total || 0} in all`),
        h('ul', { class: 'sym-list' }, depths.map((d) => h('li', null, h('strong', null, `Depth ${d}: `),
          callers.byDepth[d].map((it, i) => [i ? ', ' : '', h('a', { href: href(ctx.repo, 's', it.uid) }, it.name)])))),
      ]));
  })();
  return h('article', null, title, out);
}
