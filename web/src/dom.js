// DOM construction without HTML strings. Every text that comes from the
// API goes through textContent or setAttribute, so markup in names, paths
// and commit messages is shown as text and never parsed.

const SVG_NS = 'http://www.w3.org/2000/svg';

function append(el, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(el, c);
    return;
  }
  if (child instanceof Node) {
    el.appendChild(child);
    return;
  }
  el.appendChild(document.createTextNode(String(child)));
}

function setAttrs(el, attrs) {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : String(value));
    } else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (key === 'value') {
      el.value = String(value);
    } else if (value === true) {
      el.setAttribute(key, '');
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

// h builds an HTML element: h('a', {href: '#/x', class: 'link'}, 'text', child).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// s builds an SVG element.
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

// clear removes every child of el and returns it.
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// replace empties el and puts children in it.
export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// status is a polite live region line: loading, empty, or error.
export function status(text, kind = 'info') {
  return h('p', { class: ['status', 'status-' + kind], role: kind === 'error' ? 'alert' : 'status' }, text);
}

export function section(title, id, ...children) {
  const headingId = id + '-title';
  return h('section', { class: 'panel', id, 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title), ...children);
}

// load runs an async producer and puts its result (or its error) into el.
export async function load(el, producer) {
  replace(el, status('Loading…'));
  try {
    const out = await producer();
    replace(el, out);
  } catch (err) {
    replace(el, status(errorText(err), 'error'));
  }
}

export function errorText(err) {
  if (err && err.message) return err.message;
  return String(err);
}

export function fmtDate(iso) {
  if (!iso) return '';
  return String(iso).slice(0, 10);
}

export function shortHash(hash) {
  return String(hash || '').slice(0, 7);
}
