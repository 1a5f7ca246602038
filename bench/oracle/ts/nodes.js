'use strict';
// Which declarations are nodes of the graph, and how the oracle names them.
//
// Callable nodes: function declarations (nested ones too), class methods,
// constructors, get/set accessors, interface method signatures, and function
// expressions / arrow functions assigned directly to a variable declarator or
// a class field (named after the variable or field). Type nodes: classes and
// interfaces. Object-literal methods, callbacks and other function
// expressions are no nodes: calls in them belong to the enclosing node.

const ts = require('typescript');

function skipWrappers(n) {
  let p = n.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p)
    || ts.isTypeAssertionExpression(p) || ts.isNonNullExpression(p))) p = p.parent;
  return p;
}

function memberName(name, sf) {
  if (!name) return null;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) return name.getText(sf);
  return null;
}

function isClassLike(n) {
  return ts.isClassDeclaration(n) || ts.isClassExpression(n);
}

// The name node that gives a declaration's line, and its name, or null when
// the declaration is no node.
function identity(decl) {
  const sf = decl.getSourceFile();
  switch (decl.kind) {
    case ts.SyntaxKind.FunctionDeclaration:
      return decl.name ? { at: decl.name, name: decl.name.text } : null;
    case ts.SyntaxKind.MethodDeclaration:
    case ts.SyntaxKind.GetAccessor:
    case ts.SyntaxKind.SetAccessor:
      if (!isClassLike(decl.parent)) return null;
      return { at: decl.name, name: memberName(decl.name, sf) };
    case ts.SyntaxKind.MethodSignature:
      if (!ts.isInterfaceDeclaration(decl.parent)) return null;
      return { at: decl.name, name: memberName(decl.name, sf) };
    case ts.SyntaxKind.Constructor: {
      const kw = decl.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
      return { at: kw || decl, name: 'constructor' };
    }
    case ts.SyntaxKind.ArrowFunction:
    case ts.SyntaxKind.FunctionExpression: {
      const p = skipWrappers(decl);
      if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name) && p.initializer) {
        return { at: p.name, name: p.name.text };
      }
      if (p && ts.isPropertyDeclaration(p) && isClassLike(p.parent) && p.initializer) {
        return { at: p.name, name: memberName(p.name, sf) };
      }
      return null;
    }
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.ClassExpression: {
      if (decl.name) return { at: decl.name, name: decl.name.text };
      const p = skipWrappers(decl);
      if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return { at: p.name, name: p.name.text };
      return null;
    }
    case ts.SyntaxKind.InterfaceDeclaration:
      return { at: decl.name, name: decl.name.text };
    default:
      return null;
  }
}

function isFunctionLike(n) {
  return ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n)
    || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)
    || ts.isArrowFunction(n) || ts.isFunctionExpression(n);
}

// The innermost node a call belongs to: a callable node, else a class whose
// body holds it (field initializers, static blocks, member decorators), else
// null for the file. Class decorators and heritage clauses are evaluated
// around the class.
function enclosing(call) {
  let n = call.parent;
  let prev = call;
  while (n && !ts.isSourceFile(n)) {
    if (ts.isDecorator(n)) {
      const target = n.parent;
      if (isClassLike(target)) {
        prev = target;
        n = target.parent;
        continue;
      }
      let cls = target;
      while (cls && !isClassLike(cls)) cls = cls.parent;
      if (cls && identity(cls)) return cls;
      prev = cls || target;
      n = prev.parent;
      continue;
    }
    if (ts.isHeritageClause(n)) {
      prev = n.parent;
      n = n.parent.parent;
      continue;
    }
    if (isFunctionLike(n) && identity(n)) {
      // A computed member name is evaluated with the class, not the member.
      if (!(prev && n.name === prev)) return n;
    }
    if (isClassLike(n) && identity(n)) return n;
    prev = n;
    n = n.parent;
  }
  return null;
}

module.exports = { identity, enclosing, isClassLike, memberName, skipWrappers };
