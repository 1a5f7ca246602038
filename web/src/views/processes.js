// Processes: the detected execution flows, and one of them drawn as a flow
// from its entry point to its last step.

import { h, replace, status, load, errorText } from '../dom.js';
import { api } from '../api.js';
import { href } from '../router.js';

export function processesView(ctx) {
  ctx.setTitle('Processes');
  const out = h('div');
  load(out, async () => {
    const data = await api.graph('processes', { repo: ctx.repo });
    const procs = (data.processes || []).slice();
    if (procs.length === 0) return h('p', { class: 'muted' }, 'No execution flow was detected in this repository.');
    return [
      h('p', { class: 'muted' }, `${procs.length} processes${data.truncated ? ' (the longest shown)' : ''}`),
      h('table', { class: 'data' },
        h('caption', { class: 'visually-hidden' }, 'Processes'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Process'), h('th', { scope: 'col' }, 'Entry'), h('th', { scope: 'col', class: 'num' }, 'Steps'))),
        h('tbody', null, procs.map((p) => h('tr', null,
          h('td', null, h('a', { href: href(ctx.repo, 'process', p.id) }, p.label || p.id)),
          h('td', null, p.entry ? h('a', { href: href(ctx.repo, 's', p.entry.id) }, p.entry.name || p.entry.id) : ''),
          h('td', { class: 'num' }, String(p.steps ?? '')))))),
    ];
  });
  return h('article', null, h('h1', { tabindex: '-1' }, 'Processes'), out);
}

export function processView(ctx) {
  const id = ctx.args[0];
  ctx.setTitle('Process');
  const title = h('h1', { tabindex: '-1' }, 'Process');
  const out = h('div');
  (async () => {
    replace(out, status('Loading…'));
    let data;
    try {
      data = await api.graph('process', { repo: ctx.repo, id });
    } catch (err) {
      replace(out, status(errorText(err), 'error'));
      return;
    }
    if (!ctx.isCurrent()) return;
    replace(title, 'Process: ', data.label || id);
    ctx.setTitle(data.label || 'Process');
    const steps = (data.steps || []).slice().sort((a, b) => a.step - b.step || String(a.name).localeCompare(String(b.name)));
    const byStep = new Map();
    for (const s of steps) {
      if (!byStep.has(s.step)) byStep.set(s.step, []);
      byStep.get(s.step).push(s);
    }
    const stepOf = new Map(steps.map((s) => [s.id, s]));
    const jumps = (data.edges || []).filter((e) => {
      const a = stepOf.get(e.src);
      const b = stepOf.get(e.dst);
      return a && b && b.step !== a.step + 1;
    });
    const flow = h('ol', { class: 'flow', 'aria-label': 'Steps from the entry point to the end' },
      [...byStep.entries()].map(([n, group]) => h('li', { class: 'flow-step' },
        h('span', { class: 'flow-num' }, `Step ${n}`),
        h('div', { class: 'flow-nodes' }, group.map((s) => h('a', { class: 'flow-node', href: href(ctx.repo, 's', s.id) },
          h('span', { class: 'flow-name' }, s.name), h('span', { class: 'kind' }, s.kind || ''),
          h('span', { class: 'muted flow-path' }, `${s.filePath || ''}${s.startLine ? ':' + s.startLine : ''}`)))))));
    replace(out,
      h('p', { class: 'muted' }, `${steps.length} steps`),
      flow,
      jumps.length ? [h('h2', null, 'Other links between steps'), h('ul', { class: 'sym-list' }, jumps.map((e) => h('li', null,
        `${stepOf.get(e.src).name} → ${stepOf.get(e.dst).name} (${e.type || 'CALLS'})`)))] : null);
  })();
  return h('article', null, title, h('p', null, h('a', { href: href(ctx.repo, 'processes') }, '← All processes')), out);
}
