// The global `files`: the data-folder files a call named, read and parsed on the host
// (sandbox_server/datafiles.py) and passed in as one payload string: a manifest line of
// JSON, then the pieces of every file (text, CSV records as JSON, bytes as base64)
// concatenated. Each form is sliced out and parsed on first access, then kept, so a form
// the code never reads costs nothing. The getters run inside the model's own code, on its
// own data; they still call only captured built-ins so that replaced globals
// (`JSON.parse = ...`) do not change what they return.

const SyntaxErrorCtor = SyntaxError;
const Uint8ArrayFromBase64 = Uint8Array.fromBase64;

// Defines (or, without a payload, removes) the global `files` for the run about to start.
// group: eager
function defineFiles(payload) {
  fsPreloads = ObjectCreate(null);
  const files = typeof payload === 'string' && payload !== '' ? buildFiles(payload) : undefined;
  if (files === undefined) {
    ReflectDeleteProperty(globalObject, 'files');
    return;
  }
  defineGlobalValue('files', files);
}

// What the host read before the run for Node's fs (the names the code's string literals hold), by
// name: { kind: 'file', entry } (its bytes on first access), { kind: 'dir', entries }, or { kind:
// 'missing' }. Entries marked `fs` in the manifest are these, and not part of the global `files`.
let fsPreloads = ObjectCreate(null);

function buildFiles(payload) {
  const newline = StringPrototypeIndexOf(payload, '\n');
  const manifest = JSONParse(StringPrototypeSlice(payload, 0, newline));
  const base = newline + 1;
  const files = {};
  let named = 0;
  fsPreloads = ObjectCreate(null);
  for (let i = 0; i < manifest.length; i++) {
    const spec = manifest[i];
    if (spec.fs === true) {
      if (spec.kind === 'dir') fsPreloads[spec.name] = { __proto__: null, kind: 'dir', entries: spec.entries };
      else if (spec.kind === 'missing') fsPreloads[spec.name] = { __proto__: null, kind: 'missing' };
      else fsPreloads[spec.name] = { __proto__: null, kind: 'file', entry: fileEntry(payload, base, spec) };
      continue;
    }
    named++;
    ReflectDefineProperty(files, spec.name, {
      __proto__: null, value: fileEntry(payload, base, spec), writable: true, configurable: true, enumerable: true,
    });
  }
  return named > 0 ? files : undefined;
}

function fsPreloaded(name) {
  return fsPreloads[name];
}

function fileEntry(payload, base, spec) {
  const entry = { name: spec.name, size: spec.size, type: spec.type, format: spec.format };
  const label = 'files[' + JSONStringify(spec.name) + ']';
  function piece(range) {
    return StringPrototypeSlice(payload, base + range[0], base + range[1]);
  }
  if (spec.base64 !== undefined) {
    lazy(entry, 'bytes', function () { return decodeBase64(piece(spec.base64)); });
    return entry;
  }
  lazy(entry, 'text', function () { return piece(spec.text); });
  if (spec.records !== undefined) {
    lazy(entry, 'records', function () { return JSONParse(piece(spec.records)); });
    lazy(entry, 'header', function () { const records = entry.records; return records.length > 0 ? records[0] : []; });
    lazy(entry, 'rows', function () { return rowsOf(entry.records); });
  }
  if (spec.format === 'json') {
    lazy(entry, 'json', function () {
      try {
        return JSONParse(piece(spec.text));
      } catch (error) {
        throw new SyntaxErrorCtor(label + '.json: the file is not valid JSON: ' + thrownMessage(error));
      }
    });
  }
  return entry;
}

// A getter that computes the value once, then replaces itself with a plain property.
function lazy(target, key, compute) {
  ReflectDefineProperty(target, key, {
    __proto__: null,
    configurable: true,
    enumerable: false,
    get: function () {
      const value = compute();
      ReflectDefineProperty(target, key, {
        __proto__: null, value, writable: true, configurable: true, enumerable: false,
      });
      return value;
    },
  });
}

// Records after the header, as objects keyed by the header's names; a missing cell is null.
function rowsOf(records) {
  const rows = [];
  if (records.length === 0) return rows;
  const header = records[0];
  const width = header.length;
  let protoColumn = -1;
  for (let c = 0; c < width; c++) if (header[c] === '__proto__') protoColumn = c;
  for (let r = 1; r < records.length; r++) {
    const record = records[r];
    const row = {};
    for (let c = 0; c < width; c++) {
      const value = c < record.length ? record[c] : null;
      if (c === protoColumn) {
        ReflectDefineProperty(row, '__proto__', {
          __proto__: null, value, writable: true, configurable: true, enumerable: true,
        });
      } else {
        row[header[c]] = value;
      }
    }
    rows[r - 1] = row;
  }
  return rows;
}

// V8 has Uint8Array.fromBase64 (captured above, before the model's code can replace it).
function decodeBase64(text) {
  return ReflectApply(Uint8ArrayFromBase64, Uint8ArrayCtor, [text]);
}
