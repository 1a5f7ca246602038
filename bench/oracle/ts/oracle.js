'use strict';
// TypeScript/JavaScript call-graph oracle: every call and `new` in a
// repository resolved with the TypeScript checker, written as static and
// dispatch edges between repository declarations.
//
// usage: node oracle.js REPO OUT.jsonl
//
// Besides OUT.jsonl it writes OUT.stats.json (counts, timings, programs, why
// sites went unresolved), OUT.files.txt (the source files it read) and
// OUT.unresolved.jsonl (call sites whose callee is not known to be a
// repository node nor known to be outside the repository).

const fs = require('fs');
const path = require('path');
const ts = require('typescript');
const { sourceFiles } = require('./files');
const programs = require('./programs');
const { identity, enclosing, isClassLike } = require('./nodes');

function main() {
  const [repoArg, out] = process.argv.slice(2);
  if (!repoArg || !out) {
    console.error('usage: node oracle.js REPO OUT.jsonl');
    process.exit(2);
  }
  const t0 = Date.now();
  const root = fs.realpathSync(path.resolve(repoArg));
  const rels = sourceFiles(root);
  const inRepo = new Set(rels.map((r) => path.join(root, r)));
  const problems = [];
  const plans = programs.plan(root, rels, problems);
  const stats = {
    files: rels.length, sites: 0, status: {}, shapes: {}, programs: [], problems,
    external_callee_files: {},
  };
  const bump = (obj, k, by = 1) => { obj[k] = (obj[k] || 0) + by; };

  const relOf = (sf) => path.relative(root, path.resolve(sf.fileName)).split(path.sep).join('/');
  const isRepoDecl = (d) => inRepo.has(path.resolve(d.getSourceFile().fileName));

  // Declarations are named by (file, line, name), the same across programs.
  const keyOf = (decl) => {
    const id = identity(decl);
    if (!id || id.name == null) return null;
    const sf = decl.getSourceFile();
    const line = sf.getLineAndCharacterOfPosition(id.at.getStart(sf)).line + 1;
    return JSON.stringify({ file: relOf(sf), line, name: id.name });
  };

  const staticEdges = new Set();
  const dispatchWanted = []; // {caller, callee method key, site}
  const unresolved = [];
  // Type hierarchy, by key: sub -> Set(super); members: type key -> name -> [member]
  const supers = new Map();
  const subs = new Map();
  const members = new Map();

  for (const p of plans) {
    const tp = Date.now();
    const program = programs.build(p);
    const checker = program.getTypeChecker();
    const pstats = { config: p.name, files: p.files.length, seconds: 0 };
    stats.programs.push(pstats);

    const aliased = (sym) => (sym && (sym.flags & ts.SymbolFlags.Alias) ? checker.getAliasedSymbol(sym) : sym);

    // The implementation (a declaration with a body) among a declaration's
    // overloads; the first declaration when none has a body.
    const implementation = (decl) => {
      if (decl.body || !decl.symbol) return decl;
      const same = (decl.symbol.declarations || []).filter((d) => d.kind === decl.kind);
      return same.find((d) => d.body) || same[0] || decl;
    };

    const classNodeOf = (expr) => {
      const sym = aliased(checker.getSymbolAtLocation(expr));
      for (const d of (sym && sym.declarations) || []) {
        if (isClassLike(d) && isRepoDecl(d) && keyOf(d)) return d;
      }
      return null;
    };

    const symbolNode = (expr) => {
      let e = expr;
      while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
      const at = ts.isPropertyAccessExpression(e) ? e.name : e;
      const sym = aliased(checker.getSymbolAtLocation(at));
      for (const d of (sym && sym.declarations) || []) {
        if (!isRepoDecl(d)) continue;
        let cand = d;
        if ((ts.isVariableDeclaration(d) || ts.isPropertyDeclaration(d)) && d.initializer) {
          let init = d.initializer;
          while (ts.isParenthesizedExpression(init) || ts.isAsExpression(init) || ts.isSatisfiesExpression(init)) init = init.expression;
          cand = init;
        }
        if (ts.isFunctionDeclaration(cand) || ts.isMethodDeclaration(cand) || ts.isArrowFunction(cand) || ts.isFunctionExpression(cand)) {
          const impl = implementation(cand);
          if (keyOf(impl)) return impl;
        }
      }
      return null;
    };

    // resolve(call) -> {decls: [decl], status, how}
    const resolve = (call) => {
      const isNew = ts.isNewExpression(call);
      const isSuper = ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword;
      let sig;
      try {
        sig = checker.getResolvedSignature(call);
      } catch (e) {
        sig = undefined;
      }
      const decl = sig && sig.declaration;
      if (isNew || isSuper) {
        if (decl && ts.isConstructorDeclaration(decl) && isRepoDecl(decl)) {
          return { decls: [implementation(decl)], how: 'ctor' };
        }
        let cls = null;
        if (isNew) cls = classNodeOf(call.expression);
        else {
          let c = call.parent;
          while (c && !isClassLike(c)) c = c.parent;
          const ext = c && (c.heritageClauses || []).find((h) => h.token === ts.SyntaxKind.ExtendsKeyword);
          if (ext && ext.types.length) cls = classNodeOf(ext.types[0].expression);
        }
        if (cls) return { decls: [cls], how: 'ctor' };
        if (decl && !isRepoDecl(decl)) return { decls: [], status: 'external', ext: decl };
        if (decl) return { decls: [], status: 'not-a-node' };
        return { decls: [], status: 'unresolved' };
      }
      if (decl && isRepoDecl(decl)) {
        const impl = (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl) || ts.isMethodSignature(decl))
          ? implementation(decl) : decl;
        if (keyOf(impl)) return { decls: [impl], how: 'call' };
      }
      const viaSymbol = symbolNode(call.expression);
      if (viaSymbol) return { decls: [viaSymbol], how: 'symbol' };
      if (decl && !isRepoDecl(decl)) {
        const callee = call.expression;
        if (ts.isPropertyAccessExpression(callee) && ['call', 'apply', 'bind'].includes(callee.name.text)) {
          return { decls: [], status: 'indirect', ext: decl };
        }
        return { decls: [], status: 'external', ext: decl };
      }
      if (decl) return { decls: [], status: 'not-a-node' };
      return { decls: [], status: 'unresolved' };
    };

    // The repository classes and interfaces that a receiver's static type
    // names (each member of a union; `this` as its class), or null when some
    // part of it is no repository class or interface.
    const receiverTypes = (expr) => {
      let type;
      try {
        type = checker.getTypeAtLocation(expr);
      } catch {
        return null;
      }
      const parts = type.isUnion() ? type.types : [type];
      const keys = [];
      for (let t of parts) {
        if (t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) continue;
        if (t.isTypeParameter()) t = checker.getBaseConstraintOfType(t) || t;
        const sym = t.getSymbol();
        const decl = sym && (sym.declarations || []).find((d) => (isClassLike(d) || ts.isInterfaceDeclaration(d)) && isRepoDecl(d));
        const k = decl && keyOf(decl);
        if (!k) return null;
        keys.push(k);
      }
      return keys.length ? keys : null;
    };

    const recordTypes = (sf) => {
      const visit = (n) => {
        if ((isClassLike(n) || ts.isInterfaceDeclaration(n)) && keyOf(n)) {
          const k = keyOf(n);
          for (const h of n.heritageClauses || []) {
            for (const t of h.types) {
              const sym = aliased(checker.getSymbolAtLocation(t.expression));
              for (const d of (sym && sym.declarations) || []) {
                if ((isClassLike(d) || ts.isInterfaceDeclaration(d)) && isRepoDecl(d) && keyOf(d)) {
                  const sk = keyOf(d);
                  if (sk === k) continue;
                  if (!supers.has(k)) supers.set(k, new Map());
                  supers.get(k).set(sk, h.token === ts.SyntaxKind.ExtendsKeyword && isClassLike(n) && isClassLike(d));
                  if (!subs.has(sk)) subs.set(sk, new Set());
                  subs.get(sk).add(k);
                }
              }
            }
          }
          const byName = members.get(k) || new Map();
          members.set(k, byName);
          for (const m of n.members) {
            let fn = null;
            if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) fn = m;
            else if (ts.isPropertyDeclaration(m) && m.initializer
              && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer))) fn = m.initializer;
            if (!fn) continue;
            const mk = keyOf(fn);
            if (!mk) continue;
            const name = JSON.parse(mk).name;
            const mods = ts.getCombinedModifierFlags(m);
            const list = byName.get(name) || [];
            byName.set(name, list);
            if (list.some((x) => x.key === mk)) continue;
            list.push({
              key: mk,
              isStatic: !!(mods & ts.ModifierFlags.Static),
              concrete: !!fn.body && !(mods & ts.ModifierFlags.Abstract),
              method: ts.isMethodDeclaration(m) || ts.isMethodSignature(m),
              private: ts.isPrivateIdentifier(m.name),
            });
          }
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    };

    for (const abs of p.files) {
      const sf = program.getSourceFile(abs);
      if (!sf) {
        problems.push(`${p.name}: ${abs} not in program`);
        continue;
      }
      const rel = relOf(sf);
      recordTypes(sf);
      const visit = (n) => {
        if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
          stats.sites += 1;
          const shape = ts.isNewExpression(n) ? 'new'
            : n.expression.kind === ts.SyntaxKind.SuperKeyword ? 'super()'
              : n.expression.kind === ts.SyntaxKind.ImportKeyword ? 'import()'
                : ts.isPropertyAccessExpression(n.expression) ? 'member' : ts.isIdentifier(n.expression) ? 'name' : 'other';
          bump(stats.shapes, shape);
          const enc = enclosing(n);
          const caller = enc ? JSON.parse(keyOf(enc)) : { file: rel, line: 0, name: '' };
          const site = { file: rel, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1 };
          if (shape === 'import()' || (ts.isIdentifier(n.expression) && n.expression.text === 'require' && ts.isCallExpression(n))) {
            bump(stats.status, 'module-load');
          } else {
            const r = resolve(n);
            if (!r.decls.length) {
              bump(stats.status, r.status);
              if (r.ext) bump(stats.external_callee_files, externalLabel(r.ext.getSourceFile().fileName));
              if (r.status !== 'external') {
                unresolved.push({ caller, site, status: r.status, callee: n.expression.getText(sf).slice(0, 80) });
              }
            } else {
              bump(stats.status, 'resolved');
              for (const d of r.decls) {
                const callee = JSON.parse(keyOf(d));
                staticEdges.add(JSON.stringify({ caller, callee, kind: 'static', site }));
                const viaSuper = ts.isPropertyAccessExpression(n.expression) && n.expression.expression.kind === ts.SyntaxKind.SuperKeyword;
                if (r.how !== 'ctor' && !viaSuper && (ts.isMethodDeclaration(d) || ts.isMethodSignature(d))
                  && (isClassLike(d.parent) || ts.isInterfaceDeclaration(d.parent))
                  && !(ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Static) && !ts.isPrivateIdentifier(d.name)) {
                  dispatchWanted.push({
                    caller, site, owner: keyOf(d.parent), name: callee.name, method: keyOf(d),
                    receivers: ts.isPropertyAccessExpression(n.expression) || ts.isElementAccessExpression(n.expression)
                      ? receiverTypes(n.expression.expression) : null,
                  });
                }
              }
            }
          }
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    pstats.seconds = (Date.now() - tp) / 1000;
  }

  // Dispatch: the method that each transitive subtype of the owner runs for
  // the name (its own, or inherited along its extends chain), when concrete.
  const lookup = (typeKey, name, seen = new Set()) => {
    if (seen.has(typeKey)) return null;
    seen.add(typeKey);
    const own = ((members.get(typeKey) || new Map()).get(name) || []).filter((m) => !m.isStatic);
    if (own.length) return own.find((m) => m.concrete) || own[0];
    for (const [sup, isExtends] of supers.get(typeKey) || []) {
      if (!isExtends) continue;
      const m = lookup(sup, name, seen);
      if (m) return m;
    }
    return null;
  };
  const subtypesOf = (k) => {
    const outList = [];
    const seen = new Set([k]);
    const queue = [...(subs.get(k) || [])];
    while (queue.length) {
      const t = queue.shift();
      if (seen.has(t)) continue;
      seen.add(t);
      outList.push(t);
      queue.push(...(subs.get(t) || []));
    }
    return outList;
  };
  // The receiver's static type R narrows the candidates to R and its
  // subtypes, when R is the method's owner T or a subtype of it; otherwise
  // (receiver of no repository type) all subtypes of T are candidates.
  const dispatchEdges = new Set();
  let broadOnly = 0;
  for (const w of dispatchWanted) {
    const ofOwner = subtypesOf(w.owner);
    const within = new Set([w.owner, ...ofOwner]);
    let cands = ofOwner;
    if (w.receivers && w.receivers.every((r) => within.has(r))) {
      const narrowed = new Set();
      for (const r of w.receivers) {
        narrowed.add(r);
        for (const t of subtypesOf(r)) narrowed.add(t);
      }
      narrowed.delete(w.owner);
      broadOnly += ofOwner.filter((t) => !narrowed.has(t)).length;
      cands = [...narrowed];
    }
    for (const t of cands) {
      const m = lookup(t, w.name);
      if (!m || !m.concrete || m.key === w.method) continue;
      const line = JSON.stringify({ caller: w.caller, callee: JSON.parse(m.key), kind: 'static', site: w.site });
      if (staticEdges.has(line)) continue;
      dispatchEdges.add(JSON.stringify({ caller: w.caller, callee: JSON.parse(m.key), kind: 'dispatch', site: w.site }));
    }
  }

  const all = [...staticEdges, ...dispatchEdges].sort();
  fs.writeFileSync(out, all.map((l) => l + '\n').join(''));
  fs.writeFileSync(out + '.files.txt', rels.map((r) => r + '\n').join(''));
  fs.writeFileSync(out + '.unresolved.jsonl', unresolved.map((u) => JSON.stringify(u)).sort().map((l) => l + '\n').join(''));
  const callers = new Set(all.map((l) => JSON.stringify(JSON.parse(l).caller)));
  Object.assign(stats, {
    static_edges: staticEdges.size,
    dispatch_edges: dispatchEdges.size,
    callers: callers.size,
    types: members.size,
    dispatch_subtypes_dropped_by_receiver_type: broadOnly,
    type_edges: [...supers.values()].reduce((a, m) => a + m.size, 0),
    seconds_total: (Date.now() - t0) / 1000,
    typescript: ts.version,
  });
  fs.writeFileSync(out + '.stats.json', JSON.stringify(stats, null, 1) + '\n');
  const brief = {};
  for (const k of ['files', 'sites', 'static_edges', 'dispatch_edges', 'callers', 'seconds_total']) brief[k] = stats[k];
  console.error(JSON.stringify(brief));
  console.error(JSON.stringify(stats.status));

  function externalLabel(file) {
    const f = path.resolve(file);
    const nm = f.lastIndexOf(`${path.sep}node_modules${path.sep}`);
    if (nm >= 0) {
      const rest = f.slice(nm + 14).split(path.sep);
      return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    }
    if (f.startsWith(root + path.sep)) return `(repository, outside the source set) ${path.relative(root, f).split(path.sep)[0]}`;
    return path.basename(f);
  }
}

main();
