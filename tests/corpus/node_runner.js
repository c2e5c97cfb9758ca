// Runs one corpus snippet in Node and prints what a REPL user would see, as one JSON line on stdout.
//
// The corpus's expected outputs come from here, so that they are Node's answers rather than anyone's idea of
// them. Usage: node --expose-internals node_runner.js SNIPPET [INPUT_JSON_FILE]
// (TypeScript snippets need TYPESCRIPT_MODULE, the path of the `typescript` package.)
//
// How the snippet is run, to match what execute_js promises:
// - TypeScript is transpiled with the TypeScript compiler (transpileModule, ES2022 target), then run as JS.
// - The value is the script's completion value, as in a console. A last statement that is a block which
//   reads as an object literal (`{ mean, median }`) is taken as that object, as Node's REPL does.
// - Code with top-level await is rewritten by Node's own REPL transform, so its last expression is the value.
// - A Promise value is awaited; the output is written when Node's event loop has nothing left to do (timers).
// - console output is captured with the rendering depth execute_js uses (6 levels; Node's default is 2).
'use strict';

const fs = require('node:fs');
const util = require('node:util');
const vm = require('node:vm');
const { Console } = require('node:console');
const { Writable } = require('node:stream');
const acorn = require('internal/deps/acorn/acorn/dist/acorn');
const { processTopLevelAwait } = require('internal/repl/await');

const INSPECT_OPTIONS = { depth: 6 };

const [snippetPath, inputPath] = process.argv.slice(2);
let code = fs.readFileSync(snippetPath, 'utf8');

if (snippetPath.endsWith('.ts')) {
  const ts = require(process.env.TYPESCRIPT_MODULE);
  code = ts.transpileModule(code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false },
    reportDiagnostics: false,
  }).outputText.replace(/^export \{\};\s*$/m, '');
}

// A script whose last lines are an object literal (`{ mean, median }`, `{ "a": 1 }`) gives that object, as
// Node's REPL does when such a line is typed on its own: look for the last line that starts with `{` such that
// everything before it is a program and everything from it on is one object literal.
const PARSE_OPTIONS = {
  ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true,
};

function parses(source) {
  try {
    acorn.parse(source, PARSE_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

function objectLiteralEnding(source) {
  const lines = source.split('\n');
  for (let index = lines.length - 1; index >= 0; index--) {
    if (!lines[index].trimStart().startsWith('{')) continue;
    const before = lines.slice(0, index).join('\n');
    const tail = lines.slice(index).join('\n').trim();
    if (tail.endsWith(';')) continue;
    let body;
    try {
      body = acorn.parse(`(${tail})`, PARSE_OPTIONS).body;
    } catch {
      continue;
    }
    if (body.length !== 1 || body[0].type !== 'ExpressionStatement' || body[0].expression.type !== 'ObjectExpression') {
      continue;
    }
    if (parses(before)) return `${before}\n(${tail})\n`;
  }
  return source;
}

// execute_js runs module syntax in a script: a static import is a require, `export` in front of a declaration goes.
// The snippets write one import per line.
function importsAsRequires(source) {
  return source.split('\n').map((line) => {
    let match = /^import\s+\*\s+as\s+(\w+)\s+from\s+(['"][^'"]+['"]);?\s*$/.exec(line);
    if (match) return `const ${match[1]} = require(${match[2]});`;
    match = /^import\s+(\w+)\s*,\s*\{([^}]*)\}\s*from\s+(['"][^'"]+['"]);?\s*$/.exec(line);
    if (match) return `const ${match[1]} = require(${match[3]}), {${match[2].replace(/\bas\b/g, ':')}} = ${match[1]};`;
    match = /^import\s+\{([^}]*)\}\s*from\s+(['"][^'"]+['"]);?\s*$/.exec(line);
    if (match) return `const {${match[1].replace(/\bas\b/g, ':')}} = require(${match[2]});`;
    match = /^import\s+(\w+)\s+from\s+(['"][^'"]+['"]);?\s*$/.exec(line);
    if (match) return `const ${match[1]} = require(${match[2]});`;
    match = /^import\s+(['"][^'"]+['"]);?\s*$/.exec(line);
    if (match) return `require(${match[1]});`;
    return line.replace(/^export\s+(default\s+)?(?=(async\s+)?(function|class|const|let|var)\b)/, '');
  }).join('\n');
}

code = objectLiteralEnding(importsAsRequires(code)).replace(/\bimport\s*\(/g, '__import(');

const stdout = [];
const stderr = [];
const sink = (chunks) => new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done(); } });
globalThis.console = new Console({ stdout: sink(stdout), stderr: sink(stderr), inspectOptions: INSPECT_OPTIONS });
// execute_js gives the code Node's built-in modules through `require` (the pure-computation ones).
globalThis.require = require;
// and `import(name)` of one of them (the runner's script has no module loader of its own).
globalThis.__import = async (name) => require(name);
// execute_js runs the code as the script /main.js with no arguments, writes process.stdout and process.stderr
// into the captured streams, and ends the call with its output kept on process.exit.
process.argv = ['node', '/main.js'];
process.stdout.write = (chunk) => { stdout.push(String(chunk)); return true; };
process.stderr.write = (chunk) => { stderr.push(String(chunk)); return true; };
const realExit = process.exit.bind(process);
process.exit = (code) => {
  const status = code ?? process.exitCode ?? 0;
  if (status === 0) settle(undefined);
  else outcome = { error: { phase: 'run', name: 'ProcessExit', message: `exit code ${status}` } };
  finish();
  realExit(0);
};
// execute_js defines `input` in every call, undefined when the call passes none.
globalThis.input = inputPath === undefined ? undefined : JSON.parse(fs.readFileSync(inputPath, 'utf8'));

function isPlainJson(value) {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((item, index) => index in value && isPlainJson(item));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every(isPlainJson);
  }
  return false;
}

let outcome;
function finish() {
  if (outcome === undefined) return;
  const report = { stdout: stdout.join(''), stderr: stderr.join(''), ...outcome };
  outcome = undefined;
  fs.writeSync(1, `${JSON.stringify(report)}\n`);
}

function settle(value) {
  outcome = { resultText: util.inspect(value, INSPECT_OPTIONS) };
  if (isPlainJson(value)) outcome.result = value;
}

function fail(error, phase = 'run') {
  outcome = { error: { phase, name: error?.name, message: error?.message } };
}

process.on('beforeExit', finish);
process.on('uncaughtException', (error) => { fail(error); finish(); process.exit(0); });

(async () => {
  // Node's REPL rewriter fails on some code without `await` (array holes in a pattern), which it would not change.
  const wrapped = /\bawait\b/.test(code) ? processTopLevelAwait(code) : null;
  let script;
  try {
    script = new vm.Script(wrapped ?? code, { filename: 'main.js' });
  } catch (error) {
    fail(error, 'compile');
    return;
  }
  let value = script.runInThisContext();
  if (wrapped !== null) value = (await value)?.value;
  if (value !== null && typeof value === 'object' && typeof value.then === 'function') value = await value;
  settle(value);
})().catch((error) => fail(error));
