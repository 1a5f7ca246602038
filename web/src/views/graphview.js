// The neighbourhood graph full size; its controls live in the route's
// parameters, so a view can be linked and reloaded.

import { h } from '../dom.js';
import { href } from '../router.js';
import { neighbourhoodPanel } from '../neighbourhood.js';

export function graphView(ctx) {
  const uid = ctx.args[0];
  ctx.setTitle('Graph of ' + uid);
  performance.clearMarks('graph-drawn');
  performance.clearMarks('symbol-open');
  performance.mark('symbol-open');
  const panel = neighbourhoodPanel({
    repo: ctx.repo, uid, params: ctx.params, big: true,
    onParams: (st) => {
      const url = href(ctx.repo, 'g', uid, {
        depth: st.depth, types: st.types.join(','), minConfidence: st.minConfidence || '',
        hideTests: st.hideTests ? '1' : '', limit: st.limit,
      });
      history.replaceState(null, '', url);
    },
  });
  ctx.onCleanup(() => panel.destroy());
  return h('article', { class: 'graph-view' },
    h('h1', { tabindex: '-1' }, 'Neighbourhood of ', h('a', { href: href(ctx.repo, 's', uid) }, uid.replace(/^[A-Za-z]+:/, ''))),
    h('p', { class: 'muted hint' }, 'Click a node to add its neighbours; scroll to zoom, drag to pan.'),
    panel.el);
}
