'use strict';
// The TypeScript programs that cover a repository: one per tsconfig.json /
// jsconfig.json whose files are in the repository, and one more with default
// options (allowJs) for the source files that no config includes. Each source
// file is read in one program: the one whose config directory is its nearest
// ancestor among those that include it.

const path = require('path');
const ts = require('typescript');
const { configFiles } = require('./files');

const LOOSE_OPTIONS = {
  allowJs: true,
  checkJs: false,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  jsx: ts.JsxEmit.Preserve,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  resolveJsonModule: true,
  skipLibCheck: true,
  maxNodeModuleJsDepth: 1,
};

function parseConfig(abs, problems) {
  const host = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => problems.push(`${abs}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(abs, { noEmit: true }, host);
  if (!parsed) return null;
  return parsed;
}

function isAncestor(dir, file) {
  return file === dir || file.startsWith(dir + path.sep);
}

// plan(root, files) -> [{name, options, rootNames, files: [abs]}]
function plan(root, relFiles, problems) {
  const wanted = new Map(relFiles.map((rel) => [path.join(root, rel), rel]));
  const configs = [];
  for (const rel of configFiles(root)) {
    const abs = path.join(root, rel);
    const parsed = parseConfig(abs, problems);
    if (!parsed) continue;
    const names = parsed.fileNames.map((f) => path.resolve(f));
    configs.push({
      name: rel,
      dir: path.dirname(abs),
      options: { ...parsed.options, noEmit: true, skipLibCheck: true },
      rootNames: names,
      includes: new Set(names),
      files: [],
    });
  }
  const loose = { name: '(no config)', dir: root, options: null, rootNames: [], files: [] };
  for (const abs of wanted.keys()) {
    const cands = configs.filter((c) => c.includes.has(abs));
    let best = null;
    for (const c of cands) {
      if (!isAncestor(c.dir, abs)) continue;
      if (!best || c.dir.length > best.dir.length) best = c;
    }
    (best || cands[0] || loose).files.push(abs);
  }
  if (loose.files.length) {
    const rootCfg = configs.find((c) => c.dir === root);
    loose.options = rootCfg
      ? { ...rootCfg.options, allowJs: true, checkJs: false, maxNodeModuleJsDepth: 1 }
      : { ...LOOSE_OPTIONS };
    delete loose.options.rootDir;
    delete loose.options.composite;
    loose.rootNames = loose.files.slice();
  }
  return [...configs, loose].filter((c) => c.files.length);
}

// Type roots and relative names are found from the config's directory, or
// from the repository root for the files no config includes.
function build(p) {
  const host = ts.createCompilerHost(p.options);
  host.getCurrentDirectory = () => p.dir;
  return ts.createProgram({ rootNames: p.rootNames, options: p.options, host });
}

module.exports = { plan, build };
