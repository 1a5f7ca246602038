'use strict';
// Source files of a repository that the TypeScript/JavaScript oracle reads:
// the files git lists (tracked plus untracked-but-not-ignored), or every file
// under the root when it is not a git work tree, less vendored, generated and
// test-data trees and minified bundles.

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'vendor', 'third_party', 'testdata', 'test_data', 'fixtures', '__fixtures__']);

function gitFiles(root) {
  const out = execFileSync('git', ['-c', 'core.quotePath=false', 'ls-files', '-co', '--exclude-standard', '-z'], {
    cwd: root, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'],
  });
  return [...new Set(out.toString('utf8').split('\0').filter(Boolean))];
}

function walkedFiles(root) {
  const out = [];
  const visit = (rel) => {
    for (const ent of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (ent.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${ent.name}` : ent.name;
      if (ent.isDirectory()) {
        if (!SKIPPED_DIRS.has(ent.name)) visit(r);
      } else if (ent.isFile()) out.push(r);
    }
  };
  visit('');
  return out;
}

function skipped(rel) {
  const parts = rel.split('/');
  parts.pop();
  return parts.some((p) => SKIPPED_DIRS.has(p) || p.startsWith('.'));
}

function listed(root) {
  try {
    return gitFiles(root);
  } catch {
    return walkedFiles(root);
  }
}

// Repository-relative paths of the source files, sorted.
function sourceFiles(root) {
  return listed(root)
    .filter((rel) => SOURCE.test(rel) && !skipped(rel) && !/\.min\.js$/.test(rel))
    .filter((rel) => {
      try {
        const st = fs.lstatSync(path.join(root, rel));
        return st.isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

// Repository-relative paths of the tsconfig.json / jsconfig.json files.
function configFiles(root) {
  return listed(root)
    .filter((rel) => /(^|\/)(tsconfig|jsconfig)\.json$/.test(rel) && !skipped(rel))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

module.exports = { sourceFiles, configFiles };
