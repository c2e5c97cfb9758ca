// The TypeScript compiler's reading of the generated boundary cases (boundary_cases.py), and whether the
// JavaScript the worker runs for each case means the same program. Each case is transpiled by
// `typescript` (module syntax dropped, as scripts have none; null when the compiler reports a syntax
// error or its output is no JavaScript). Where a case carries `ours` (the blanked code), both texts are parsed by `acorn` and their
// syntax trees compared with positions, raw literal text and empty statements left out: a `;` of its
// own is all that blanking adds, and all that the compiler's own semicolons are.
// Usage: node boundary_oracle.js cases.json (cases: [{ name, code, ours }]); prints JSON.
// Exit 3 when either package is missing.
'use strict';
const fs = require('fs');

function load(name) {
  try {
    return require(name);
  } catch {
    return null;
  }
}

const ts = load('typescript');
const acorn = load('acorn');
if (ts === null || acorn === null) process.exit(3);

const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Preserve,
  useDefineForClassFields: true,
};

function transpile(code) {
  const output = ts.transpileModule(code, { compilerOptions, reportDiagnostics: true });
  if ((output.diagnostics || []).length > 0) return null;
  return output.outputText
    .replace(/^export \{\s*\};?\s*$/gm, '')
    .replace(/^export (default )?/gm, '')
    .replace(/^import .*$/gm, '');
}

const parseOptions = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  allowHashBang: true,
};
// A string statement that the compiler's output begins with is a directive there, though not in the
// TypeScript (whose prologue an interface before it ended): that is the compiler's difference, not ours.
const POSITIONS = new Set(['start', 'end', 'loc', 'range', 'raw', 'directive']);
const STATEMENT_LISTS = new Set(['body', 'consequent']);

function shape(code) {
  let tree;
  try {
    tree = acorn.parse(code, parseOptions);
  } catch (error) {
    return `does not parse: ${error.message}`;
  }
  return JSON.stringify(tree, function (key, value) {
    if (POSITIONS.has(key)) return undefined;
    if (STATEMENT_LISTS.has(key) && Array.isArray(value)) {
      return value.filter((node) => node === null || node.type !== 'EmptyStatement');
    }
    if (typeof value === 'bigint') return `${value}n`;
    return value;
  });
}

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const results = cases.map(({ name, code, ours }) => {
  let tsc = transpile(code);
  // The compiler lets some JavaScript errors through (`static const w = 1`): no program to match.
  const expected = tsc === null ? null : shape(tsc);
  if (expected !== null && expected.startsWith('does not parse')) tsc = null;
  const result = { name, tsc, same: null };
  if (tsc !== null && typeof ours === 'string') {
    const actual = shape(ours);
    result.same = expected === actual;
    if (!result.same) result.detail = { expected, actual };
  }
  return result;
});
process.stdout.write(JSON.stringify({ typescript: ts.version, results }));
