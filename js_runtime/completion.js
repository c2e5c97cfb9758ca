// Code that uses top-level await runs as the body of an async function, which has no
// completion value. So that `const r = await f(); r.length` still gives a result as a REPL
// would, the last expression statement is turned into a `return`. Finding it needs a
// statement boundary: the scanner below walks the code once, skipping strings, template
// literals, comments and regular expressions, and notes where top-level statements may end.
// Every candidate is checked by compiling it (compiling a function expression runs none of
// the code); the earliest boundary that compiles wins, so the returned expression is as
// long as the code allows.

// Characters that, at the start of a line, continue the previous statement (no automatic
// semicolon is inserted before them), so a line break before them is no boundary.
const CONTINUATION_STARTS = '([`+-/.,?:=*%&|^<>!~';
// Statements that are not expressions.
const STATEMENT_WORDS = ['let', 'const', 'var', 'function', 'class', 'if', 'for', 'while', 'do', 'switch',
  'try', 'return', 'throw', 'break', 'continue', 'import', 'export', 'async function', 'debugger'];
const MAX_COMPLETION_CANDIDATES = 64;

function isIdentifierCharCode(code) {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) ||
    code === 36 || code === 95 || code > 127;
}

// Whether a `/` after `previous` (the last significant character, or '' at the start) starts
// a regular expression rather than a division.
function slashStartsRegExp(code, previous, previousEnd) {
  if (previous === '' || StringPrototypeIncludes('(,=:[!&|?{};~+-*%<>^', previous)) return true;
  if (!isIdentifierCharCode(StringPrototypeCharCodeAt(previous, 0))) return false;
  let start = previousEnd;
  while (start > 0 && isIdentifierCharCode(StringPrototypeCharCodeAt(code, start - 1))) start--;
  const word = StringPrototypeSlice(code, start, previousEnd);
  return word === 'return' || word === 'typeof' || word === 'instanceof' || word === 'in' || word === 'of' ||
    word === 'new' || word === 'delete' || word === 'void' || word === 'throw' || word === 'case' ||
    word === 'do' || word === 'else' || word === 'yield' || word === 'await';
}

// Positions where a top-level statement may end: after `;` and at line breaks, both at
// bracket depth zero and outside strings, templates, comments and regular expressions.
function statementBoundaries(code) {
  const boundaries = asList([0]);
  const closers = list();
  let previous = '';
  let previousEnd = 0;
  let i = 0;
  const length = code.length;
  while (i < length) {
    const ch = code[i];
    if (ch === '\n') {
      if (closers.length === 0) ArrayPrototypePush(boundaries, i + 1);
      i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '/' && code[i + 1] === '/') {
      while (i < length && code[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && code[i + 1] === '*') {
      const end = StringPrototypeIndexOf(code, '*/', i + 2);
      if (end === -1) return boundaries;
      for (let j = i; j < end; j++) {
        if (code[j] === '\n' && closers.length === 0) ArrayPrototypePush(boundaries, j + 1);
      }
      i = end + 2;
      continue;
    }
    if (ch === '"' || ch === "'") {
      i++;
      while (i < length && code[i] !== ch && code[i] !== '\n') i += code[i] === '\\' ? 2 : 1;
      i++;
    } else if (ch === '`') {
      i = skipTemplate(code, i + 1);
      if (i === -1) return boundaries;
    } else if (ch === '/' && slashStartsRegExp(code, previous, previousEnd)) {
      i++;
      let inClass = false;
      while (i < length && code[i] !== '\n' && (inClass || code[i] !== '/')) {
        if (code[i] === '\\') i++;
        else if (code[i] === '[') inClass = true;
        else if (code[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < length && isIdentifierCharCode(StringPrototypeCharCodeAt(code, i))) i++;
    } else {
      if (ch === '(' || ch === '[' || ch === '{') ArrayPrototypePush(closers, ch);
      else if (ch === ')' || ch === ']' || ch === '}') closers.length = MathMax(0, closers.length - 1);
      else if (ch === ';' && closers.length === 0) ArrayPrototypePush(boundaries, i + 1);
      i++;
    }
    previous = code[i - 1] === undefined ? '' : code[i - 1];
    previousEnd = i;
  }
  return boundaries;
}

// Index just past a template literal whose body starts at `i`, or -1 when it never ends.
function skipTemplate(code, i) {
  const length = code.length;
  while (i < length) {
    const ch = code[i];
    if (ch === '\\') {
      i += 2;
    } else if (ch === '`') {
      return i + 1;
    } else if (ch === '$' && code[i + 1] === '{') {
      let depth = 1;
      i += 2;
      while (i < length && depth > 0) {
        const inner = code[i];
        if (inner === '{') depth++;
        else if (inner === '}') depth--;
        else if (inner === '`') {
          i = skipTemplate(code, i + 1);
          if (i === -1) return -1;
          continue;
        } else if (inner === '"' || inner === "'") {
          i++;
          while (i < length && code[i] !== inner && code[i] !== '\n') i += code[i] === '\\' ? 2 : 1;
        }
        i++;
      }
    } else {
      i++;
    }
  }
  return -1;
}

// The first position at or after `i` that is not white space or a comment.
function skipInsignificant(code, i) {
  const length = code.length;
  while (i < length) {
    const ch = code[i];
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') {
      i++;
    } else if (ch === '/' && code[i + 1] === '/') {
      while (i < length && code[i] !== '\n') i++;
    } else if (ch === '/' && code[i + 1] === '*') {
      const end = StringPrototypeIndexOf(code, '*/', i + 2);
      if (end === -1) return length;
      i = end + 2;
    } else {
      break;
    }
  }
  return i;
}

function startsWithStatementWord(text) {
  for (let k = 0; k < STATEMENT_WORDS.length; k++) {
    const word = STATEMENT_WORDS[k];
    if (StringPrototypeStartsWith(text, word)) {
      const next = StringPrototypeCharCodeAt(text, word.length);
      if (NumberIsNaN(next) || !isIdentifierCharCode(next)) return true;
    }
  }
  return false;
}

// Where the last statement's text ends: before the `;` or line break after which only white
// space and comments follow.
function expressionEnd(code, boundaries) {
  for (let k = 1; k < boundaries.length; k++) {
    if (skipInsignificant(code, boundaries[k]) >= code.length) return boundaries[k] - 1;
  }
  return code.length;
}

// 1-based line and column of index `at` in `code` (lines end at '\n', as V8 counts them here).
function positionOf(code, at) {
  const before = StringPrototypeSlice(code, 0, at);
  let line = 1;
  let lineStart = 0;
  let newline = StringPrototypeIndexOf(before, '\n');
  while (newline !== -1) {
    line++;
    lineStart = newline + 1;
    newline = StringPrototypeIndexOf(before, '\n', lineStart);
  }
  return { __proto__: null, line, column: at - lineStart + 1 };
}

function compileReturning(code, start, end) {
  const source = StringPrototypeSlice(code, 0, start) + 'return (' + StringPrototypeSlice(code, start, end) + '\n)' +
    StringPrototypeSlice(code, end) + '\n//# sourceURL=' + SCRIPT_NAME;
  try {
    return AsyncFunctionCtor(source);
  } catch {
    return undefined;
  }
}

// The code compiled as an async function body that returns the statement `hint` names, or
// undefined when that does not compile.
function compileHinted(code, hint) {
  const body = compileReturning(code, hint.start, hint.end);
  if (body === undefined) return undefined;
  const position = positionOf(code, hint.start);
  return { __proto__: null, body, line: position.line, column: position.column };
}

// Compile the model's code as an async function body whose last expression statement is
// returned. Gives { body, line, column } (the 1-based position in the model's code where
// `return (` was inserted) or undefined when no such statement exists. `hint`, when the
// worker found the last statement with a parser, names it ({ start, end }); the scanner is
// the fallback.
function compileWithCompletion(code, hint) {
  if (hint !== undefined) {
    const completion = compileHinted(code, hint);
    if (completion !== undefined) return completion;
  }
  const boundaries = statementBoundaries(code);
  const end = expressionEnd(code, boundaries);
  const first = MathMax(0, boundaries.length - MAX_COMPLETION_CANDIDATES);
  for (let k = first; k < boundaries.length; k++) {
    const start = skipInsignificant(code, boundaries[k]);
    if (start >= end) continue;
    const rest = StringPrototypeSlice(code, start, end);
    if (startsWithStatementWord(rest) || rest[0] === '{' || rest[0] === ';') continue;
    if (k > 0 && code[boundaries[k] - 1] === '\n' && StringPrototypeIncludes(CONTINUATION_STARTS, rest[0])) continue;
    const body = compileReturning(code, start, end);
    if (body === undefined) continue;
    const position = positionOf(code, start);
    return { __proto__: null, body, line: position.line, column: position.column };
  }
  return undefined;
}
