// A small tokenizer for source listings: comments, strings, numbers and
// keywords of the languages gitnexus indexes. It never parses HTML: each
// token becomes a text node in a span.

import { h } from './dom.js';

const KEYWORDS = {
  go: 'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false iota',
  js: 'async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new null of return static super switch this throw true false try typeof undefined var void while with yield interface type enum implements private protected public readonly abstract as',
  py: 'and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self',
  java: 'abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new null package private protected public return short static super switch synchronized this throw throws transient true false try void volatile while var record',
  c: 'auto break case char const continue default do double else enum extern float for goto if inline int long register return short signed sizeof static struct switch typedef union unsigned void volatile while bool true false nullptr class namespace template typename public private protected virtual override new delete this using operator',
  rs: 'as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while',
  rb: 'alias and begin break case class def defined do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield',
  php: 'abstract and array as break callable case catch class clone const continue declare default do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global if implements include instanceof interface isset list namespace new null or print private protected public require return static switch throw trait true false try unset use var while yield',
  cs: 'abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null object operator out override params private protected public readonly ref return sbyte sealed short sizeof static string struct switch this throw true try typeof uint ulong unchecked unsafe ushort using var virtual void volatile while async await',
};

const EXT = {
  go: 'go', js: 'js', mjs: 'js', cjs: 'js', jsx: 'js', ts: 'js', tsx: 'js', py: 'py', pyi: 'py',
  java: 'java', kt: 'java', scala: 'java', c: 'c', h: 'c', cc: 'c', cpp: 'c', hpp: 'c', cxx: 'c',
  rs: 'rs', rb: 'rb', php: 'php', cs: 'cs', swift: 'java',
};

const sets = {};

export function languageOf(path) {
  const m = /\.([A-Za-z0-9]+)$/.exec(path || '');
  return m ? EXT[m[1].toLowerCase()] || null : null;
}

function keywordSet(lang) {
  if (!sets[lang]) sets[lang] = new Set((KEYWORDS[lang] || '').split(' '));
  return sets[lang];
}

// tokenize splits text into [kind, text] pairs; kind is '' for plain text.
export function tokenize(text, lang) {
  const out = [];
  const kw = keywordSet(lang || '');
  const hashComments = lang === 'py' || lang === 'rb' || lang === 'php';
  const slashComments = lang !== 'py' && lang !== 'rb';
  let i = 0;
  let plain = '';
  const n = text.length;
  const flush = () => {
    if (plain) out.push(['', plain]);
    plain = '';
  };
  const push = (kind, t) => {
    flush();
    out.push([kind, t]);
  };
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (slashComments && c === '/' && next === '/') {
      let j = text.indexOf('\n', i);
      if (j < 0) j = n;
      push('com', text.slice(i, j));
      i = j;
    } else if (slashComments && c === '/' && next === '*') {
      let j = text.indexOf('*/', i + 2);
      j = j < 0 ? n : j + 2;
      push('com', text.slice(i, j));
      i = j;
    } else if (hashComments && c === '#') {
      let j = text.indexOf('\n', i);
      if (j < 0) j = n;
      push('com', text.slice(i, j));
      i = j;
    } else if (lang === 'py' && (text.startsWith('"""', i) || text.startsWith("'''", i))) {
      const q = text.slice(i, i + 3);
      let j = text.indexOf(q, i + 3);
      j = j < 0 ? n : j + 3;
      push('str', text.slice(i, j));
      i = j;
    } else if (c === '"' || c === "'" || c === '`') {
      // A quote in Rust may open a lifetime; a backquote is a raw string in Go and a template in JS.
      if (c === "'" && lang === 'rs' && !/^'(\\.|[^'\\])'/.test(text.slice(i, i + 12))) {
        plain += c;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < n && text[j] !== c) {
        if (text[j] === '\\' && c !== '`') j++;
        else if (text[j] === '\n' && c !== '`') break;
        j++;
      }
      j = Math.min(n, j + 1);
      push('str', text.slice(i, j));
      i = j;
    } else if (/[0-9]/.test(c) && !/[A-Za-z0-9_$]/.test(text[i - 1] || '')) {
      const m = /^(0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9]+)?)[a-zA-Z]*/.exec(text.slice(i, i + 64));
      const t = m ? m[0] : c;
      push('num', t);
      i += t.length;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i, i + 256));
      const word = m[0];
      if (kw.has(word)) push('kw', word);
      else plain += word;
      i += word.length;
    } else {
      plain += c;
      i++;
    }
  }
  flush();
  return out;
}

// lines turns tokens into one array of [kind, text] per line.
function lines(tokens) {
  const out = [[]];
  for (const [kind, t] of tokens) {
    const parts = t.split('\n');
    parts.forEach((p, k) => {
      if (k > 0) out.push([]);
      if (p) out[out.length - 1].push([kind, p]);
    });
  }
  return out;
}

function lineContent(toks) {
  return toks.map(([kind, t]) => (kind ? h('span', { class: 'tok-' + kind }, t) : document.createTextNode(t)));
}

// sourceListing renders code with line numbers from firstLine; marks is an
// optional map from line index (0-based) to a class ('add', 'del').
export function sourceListing(code, path, firstLine = 1, label = 'Source') {
  const lang = languageOf(path);
  const ls = lines(tokenize(String(code || '').replace(/\n$/, ''), lang));
  const rows = ls.map((toks, i) => h('div', { class: 'line' },
    h('span', { class: 'ln', 'aria-hidden': 'true' }, String(firstLine + i)),
    h('code', { class: 'lc' }, lineContent(toks))));
  return h('div', { class: 'source', role: 'region', tabindex: '0', 'aria-label': label }, rows);
}

// diffListing renders the lines of a diff: [{op: ' '|'+'|'-', text, old, new}].
export function diffListing(ops, path, label = 'Changes') {
  const lang = languageOf(path);
  const rows = ops.map((op) => {
    const cls = op.op === '+' ? 'line add' : op.op === '-' ? 'line del' : 'line';
    return h('div', { class: cls },
      h('span', { class: 'ln', 'aria-hidden': 'true' }, op.old ? String(op.old) : ''),
      h('span', { class: 'ln', 'aria-hidden': 'true' }, op.new ? String(op.new) : ''),
      h('span', { class: 'op' }, op.op === ' ' ? '\u00a0' : op.op),
      h('code', { class: 'lc' }, lineContent(lines(tokenize(op.text, lang))[0] || [])));
  });
  return h('div', { class: 'source diff', role: 'region', tabindex: '0', 'aria-label': label }, rows);
}

// diffLines compares two texts line by line (longest common subsequence).
export function diffLines(a, b, aStart = 1, bStart = 1) {
  const x = String(a || '').replace(/\n$/, '').split('\n');
  const y = String(b || '').replace(/\n$/, '').split('\n');
  if (x.length * y.length > 4e6) {
    return x.map((t, i) => ({ op: '-', text: t, old: aStart + i }))
      .concat(y.map((t, i) => ({ op: '+', text: t, new: bStart + i })));
  }
  const m = x.length;
  const n = y.length;
  const dp = new Array((m + 1) * (n + 1)).fill(0);
  const at = (i, j) => i * (n + 1) + j;
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      dp[at(i, j)] = x[i] === y[j] ? dp[at(i + 1, j + 1)] + 1 : Math.max(dp[at(i + 1, j)], dp[at(i, j + 1)]);
    }
  }
  const ops = [];
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && x[i] === y[j]) {
      ops.push({ op: ' ', text: x[i], old: aStart + i, new: bStart + j });
      i++;
      j++;
    } else if (j < n && (i >= m || dp[at(i, j + 1)] >= dp[at(i + 1, j)])) {
      ops.push({ op: '+', text: y[j], new: bStart + j });
      j++;
    } else {
      ops.push({ op: '-', text: x[i], old: aStart + i });
      i++;
    }
  }
  return ops;
}
