// Hash routes: #/r/<repo>/<view>/<arg>...?key=value. Each segment is
// percent-encoded, so ids and paths with slashes fit in one segment.

export function href(repo, ...parts) {
  let last = parts.length ? parts[parts.length - 1] : null;
  let params = null;
  if (last && typeof last === 'object') {
    params = last;
    parts = parts.slice(0, -1);
  }
  let out = '#/r/' + encodeURIComponent(repo);
  for (const p of parts) out += '/' + encodeURIComponent(p);
  if (params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
    }
    const str = q.toString();
    if (str) out += '?' + str;
  }
  return out;
}

// parse reads location.hash into {repo, view, args, params}.
export function parse(hash) {
  let h = hash.replace(/^#/, '');
  let params = new URLSearchParams();
  const qi = h.indexOf('?');
  if (qi >= 0) {
    params = new URLSearchParams(h.slice(qi + 1));
    h = h.slice(0, qi);
  }
  const segs = h.split('/').filter((x) => x !== '').map((x) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return x;
    }
  });
  if (segs[0] !== 'r' || segs.length < 2) return { repo: null, view: 'home', args: [], params };
  return { repo: segs[1], view: segs[2] || 'search', args: segs.slice(3), params };
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}
