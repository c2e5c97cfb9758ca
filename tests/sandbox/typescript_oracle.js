// Checks the expected values of the TypeScript table against the TypeScript compiler itself: each
// snippet is transpiled by `typescript` (module syntax dropped, as scripts have none) and run in a
// fresh Node context; its completion value must equal the expected one. Exit 3 when the package is
// missing, 1 on any mismatch. Usage: node typescript_oracle.js cases.json
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { execFileSync } = require('child_process');

function loadTypeScript() {
  try {
    return require('typescript');
  } catch {
    try {
      const root = execFileSync('npm', ['root', '-g'], { encoding: 'utf8' }).trim();
      return require(path.join(root, 'typescript'));
    } catch {
      return null;
    }
  }
}

const ts = loadTypeScript();
if (ts === null) process.exit(3);

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const options = {
  compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.Preserve, useDefineForClassFields: true },
  reportDiagnostics: true,
};
let mismatches = 0;
for (const [name, code, expected] of cases) {
  const output = ts.transpileModule(code, options);
  const diagnostics = (output.diagnostics || []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
  const script = output.outputText
    .replace(/^export \{\s*\};?\s*$/gm, '')
    .replace(/^export (default )?/gm, '')
    .replace(/^import .*$/gm, '');
  let actual;
  try {
    actual = vm.runInNewContext(script, {});
  } catch (error) {
    actual = `threw ${error}`;
  }
  if (diagnostics.length > 0 || JSON.stringify(actual) !== JSON.stringify(expected)) {
    mismatches++;
    console.log(`${name}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)} ${diagnostics.join('; ')}`);
  }
}
console.log(`checked ${cases.length} cases, ${mismatches} mismatches`);
process.exit(mismatches === 0 ? 0 : 1);
