// The symbol page: signature, source, the symbols around it, its impact,
// the processes it takes part in, its neighbourhood graph and its history.
// Each part loads on its own, so one failing call leaves the rest.

import { h, replace, status, section, load, errorText, fmtDate, shortHash } from '../dom.js';
import { api } from '../api.js';
import { href } from '../router.js';
import { sourceListing, diffListing, diffLines } from '../highlight.js';
import { neighbourhoodPanel } from '../neighbourhood.js';

const MEMBER_KEYS = ['has_method', 'has_property', 'has_field', 'members', 'contains'];

function symbolLink(repo, item) {
  return h('a', { href: href(repo, 's', item.uid || item.id) }, item.name || item.uid || item.id);
}

function symbolList(repo, group, emptyText, siteLabel) {
  const items = (group && group.items) || [];
  if (items.length === 0) return h('p', { class: 'muted' }, emptyText);
  const more = group.total > items.length ? h('p', { class: 'muted' }, `${items.length} of ${group.total} shown`) : null;
  return [h('ul', { class: 'sym-list' }, items.map((it) => h('li', null,
    symbolLink(repo, it), ' ', h('span', { class: 'kind' }, it.kind || ''), ' ',
    h('span', { class: 'muted' }, `${it.filePath || ''}${it.siteLine ? ':' + it.siteLine : it.startLine ? ':' + it.startLine : ''}`),
    it.confidence !== undefined && it.confidence < 1 ? h('span', { class: 'conf', title: it.reason || '' }, ` ${siteLabel || 'confidence'} ${it.confidence}`) : null))), more];
}

function merged(groups) {
  const items = [];
  let total = 0;
  for (const g of groups) {
    if (!g) continue;
    items.push(...(g.items || []));
    total += g.total || (g.items || []).length;
  }
  return { items, total };
}

export function symbolView(ctx) {
  const uid = ctx.args[0];
  ctx.setTitle(uid);
  performance.clearMarks('graph-drawn');
  performance.clearMarks('symbol-open');
  performance.mark('symbol-open');
  const title = h('h1', { tabindex: '-1' }, uid);
  const meta = h('p', { class: 'muted' });
  const head = h('div', { class: 'sym-head' }, title, meta);
  const body = h('div', { class: 'sym-body' });
  const impact = h('div');
  const hist = h('div');
  const graph = neighbourhoodPanel({ repo: ctx.repo, uid, params: ctx.params });
  ctx.onCleanup(() => graph.destroy());

  const el = h('article', { class: 'symbol-view' }, head, body,
    section('Impact', 'impact', impact),
    section('Neighbourhood', 'graph', h('p', null, h('a', { href: href(ctx.repo, 'g', uid) }, 'Open the graph full size')), graph.el),
    section('History', 'history', hist));

  (async () => {
    let res;
    try {
      res = await api.tool('context', { uid, include_content: true }, ctx.repo);
    } catch (err) {
      replace(body, status(errorText(err), 'error'));
      return;
    }
    if (!ctx.isCurrent()) return;
    if (!res || res.status !== 'found' || !res.symbol) {
      replace(body, status(`No symbol ${uid} in this index (${res && res.status}).`, 'error'));
      return;
    }
    const sym = res.symbol;
    ctx.setTitle(sym.name);
    const inc = res.incoming || {};
    const out = res.outgoing || {};
    replace(title, sym.name, ' ', h('span', { class: 'kind' }, sym.kind));
    replace(meta, sym.qualifiedName ? sym.qualifiedName + ' · ' : '',
        h('a', { href: href(ctx.repo, 'file', sym.filePath) }, `${sym.filePath}`), `:${sym.startLine}–${sym.endLine}`,
        res.module ? ` · ${res.module}` : '', res.layer ? ` · ${res.layer}` : '',
        res.community ? [' · community ', h('a', { href: href(ctx.repo, 'community', res.community.uid || res.community.label) }, res.community.label)] : '');
    const procs = res.processes || [];
    replace(body,
      sym.signature ? h('pre', { class: 'signature', 'aria-label': 'Signature' }, h('code', null, sym.signature)) : null,
      sym.doc ? h('p', { class: 'doc' }, sym.doc) : null,
      sym.content ? section('Source', 'source', sourceListing(sym.content, sym.filePath, sym.startLine, 'Source of ' + sym.name)) : null,
      h('div', { class: 'columns' },
        section('Callers', 'callers', symbolList(ctx.repo, inc.calls, 'Nothing calls it.')),
        section('Callees', 'callees', symbolList(ctx.repo, out.calls, 'It calls nothing indexed.')),
        section('Members', 'members', symbolList(ctx.repo, merged(MEMBER_KEYS.map((k) => out[k])), 'No members.')),
        section('References', 'references', [
          h('h3', null, 'Referenced by'), symbolList(ctx.repo, inc.references, 'None.'),
          h('h3', null, 'References'), symbolList(ctx.repo, out.references, 'None.'),
          inc.has_method || inc.has_property ? [h('h3', null, 'Member of'), symbolList(ctx.repo, merged([inc.has_method, inc.has_property]), '')] : null,
          (inc.extends || out.extends || inc.implements || out.implements) ? [h('h3', null, 'Types'),
            symbolList(ctx.repo, merged([out.extends, out.implements, inc.extends, inc.implements]), '')] : null,
        ])),
      section('Processes', 'processes', procs.length === 0 ? h('p', { class: 'muted' }, 'It takes part in no detected process.')
        : h('ul', { class: 'sym-list' }, procs.map((p) => h('li', null,
          h('a', { href: href(ctx.repo, 'process', p.uid) }, p.label), ' ',
          h('span', { class: 'muted' }, `step ${p.step} of ${p.stepCount}`, p.processType ? ` · ${p.processType}` : ''))))));
  })();

  load(impact, async () => {
    const r = await api.tool('impact', { target_uid: uid }, ctx.repo);
    if (!r || r.status !== 'found') return status('No impact analysis for this symbol.', 'info');
    const sum = r.summary || {};
    const depths = Object.keys(r.byDepthCounts || {}).sort((a, b) => a - b);
    return [
      h('p', null, h('span', { class: ['risk', 'risk-' + String(r.risk || '').toLowerCase()] }, `Risk ${r.risk || '?'}`), ' ',
        `${sum.direct || 0} direct, ${sum.total || 0} in all, across ${sum.modules || 0} modules and ${sum.processes || 0} processes`,
        r.truncated ? ' (cut)' : ''),
      depths.length ? h('ul', { class: 'sym-list' }, depths.map((d) => h('li', null,
        h('strong', null, `Depth ${d}: `), `${r.byDepthCounts[d]} `,
        ((r.byDepth && r.byDepth[d]) || []).slice(0, 12).map((it, i) => [i ? ', ' : '', symbolLink(ctx.repo, it)])))) : null,
    ];
  });

  load(hist, async () => {
    let r;
    try {
      r = await api.tool('get_symbol_history', { uid }, ctx.repo);
    } catch (err) {
      return status(errorText(err), err.status === 404 ? 'info' : 'error');
    }
    const commits = (r && r.commits) || [];
    if (commits.length === 0) return h('p', { class: 'muted' }, 'No indexed commit changed it.');
    return [h('ol', { class: 'commit-list' }, commits.map((c) => h('li', null,
      h('a', { href: href(ctx.repo, 'at', uid, c.hash) }, c.shortHash || shortHash(c.hash)), ' ',
      h('span', { class: 'subject' }, c.subject || ''), ' ',
      h('span', { class: 'muted' }, `${c.author || ''}, ${fmtDate(c.date)} · ${c.change || ''} +${c.additions || 0} −${c.deletions || 0}`), ' ',
      h('a', { href: href(ctx.repo, 'commit', c.hash), class: 'small-link' }, 'commit')))),
    r.truncated ? h('p', { class: 'muted' }, `${commits.length} of ${r.total} commits shown`) : null];
  });

  return el;
}

// symbolAtCommitView: the symbol's source as of a commit, compared with now.
export function symbolAtCommitView(ctx) {
  const [uid, hash] = ctx.args;
  ctx.setTitle(`${uid} at ${shortHash(hash)}`);
  const out = h('div');
  load(out, async () => {
    const [then, now] = await Promise.all([
      api.functionSource(ctx.repo, uid, hash),
      api.functionSource(ctx.repo, uid).catch((err) => ({ missing: errorText(err) })),
    ]);
    const parts = [h('p', { class: 'muted' }, `${then.file_path}:${(then.line_range || [])[0]}–${(then.line_range || [])[1]} at `,
      h('a', { href: href(ctx.repo, 'commit', then.commit || hash) }, shortHash(then.commit || hash)))];
    if (now.missing) {
      parts.push(status('It no longer exists: ' + now.missing, 'info'));
      parts.push(sourceListing(then.source_code, then.file_path, (then.line_range || [1])[0], 'Source at the commit'));
    } else {
      const ops = diffLines(then.source_code, now.source_code, (then.line_range || [1])[0], (now.line_range || [1])[0]);
      const changed = ops.some((o) => o.op !== ' ');
      parts.push(h('h2', null, changed ? 'From this commit to now' : 'Unchanged since this commit'));
      parts.push(diffListing(ops, then.file_path, 'Source at the commit compared with now'));
    }
    return parts;
  });
  return h('article', null,
    h('h1', { tabindex: '-1' }, h('a', { href: href(ctx.repo, 's', uid) }, uid.replace(/^[A-Za-z]+:/, '')), ` at ${shortHash(hash)}`),
    out);
}
