// The global `tools` of execute_js_with_tools: the tools of the other MCP servers the server
// is configured with, as async functions (`await tools.github.search_issues({ q })`, or
// `tools["my-server"]["get-item"](args)` for names that are not identifiers), and the
// discovery calls `tools.$search(query)` and `tools.$describe(name)` ($ cannot occur in an MCP
// tool name, so these never collide with a tool). Each call is one host call (host.js): the
// runtime sends a clean JSON copy of the arguments, and the host decides everything (policy,
// consent, schema, limits); the names known here only give a precise error for a typo before
// any call is made. A failed call rejects with a ToolError (`server`, `tool`, `code`, and the
// upstream's own text as its message), a global too so that `e instanceof ToolError` works.
// A tool whose name is not an identifier can also be called by its declared name, the one
// `$describe` gives (`get_sum` for `get-sum`). Every result has `.content`, the MCP content
// blocks (see toolValue and sandbox_server/upstream/values.py).


class ToolError extends ErrorCtor {
  constructor(message, fields) {
    super(message);
    ReflectDefineProperty(this, 'name', { __proto__: null, value: 'ToolError', writable: true, configurable: true,
      enumerable: false });
    if (fields !== null && typeof fields === 'object') {
      const keys = ObjectKeys(fields);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (key === 'message' || key === 'name' || key === 'stack') continue;
        ReflectDefineProperty(this, key, { __proto__: null, value: fields[key], writable: true, configurable: true,
          enumerable: true });
      }
    }
  }
}

// Keys that code and the runtime read from any object to learn what it is (await reads `then`,
// JSON.stringify `toJSON`, test libraries and printers a few more): never a tool, never an error.
const PROBE_KEYS = new SetCtor(['then', 'toJSON', 'constructor', 'valueOf', 'toString', 'toLocaleString',
  'asymmetricMatch', 'nodeType', 'inspect', 'prototype', '__proto__', 'length', 'name']);

function isProbe(key) {
  return typeof key !== 'string' || SetPrototypeHas(PROBE_KEYS, key) || StringPrototypeStartsWith(key, '@@');
}

const SetPrototypeHas = uncurryThis(SetPrototype.has);

// Defines (or, without a manifest, removes) the globals `tools` and `ToolError` for the run
// about to start. The manifest is what the host lists: { servers: [{ name, tools: [names],
// unavailable: reason or null }] }.
// group: eager
function defineTools(manifest) {
  if (manifest === null || typeof manifest !== 'object' || !ArrayIsArray(manifest.servers)) {
    ReflectDeleteProperty(globalObject, 'tools');
    ReflectDeleteProperty(globalObject, 'ToolError');
    return;
  }
  installTools(manifest);
  installContent();
}

// `.content` of a string: the one text block a plain-text result is made of, so that code written
// for MCP's CallToolResult (`res.content[0].text`) works on every result. A getter that is not
// enumerable, defined once per isolate.
function installContent() {
  if (ReflectGetOwnPropertyDescriptor(StringPrototype, 'content') !== undefined) return;
  ReflectDefineProperty(StringPrototype, 'content', {
    __proto__: null,
    configurable: true,
    enumerable: false,
    get() { return typeof this === 'string' || isStringObject(this) ? textBlocks('' + this) : undefined; },
  });
}

function isStringObject(value) {
  try {
    StringPrototypeValueOf(value);
    return true;
  } catch {
    return false;
  }
}

function hasOwnKey(object, key) {
  return ReflectGetOwnPropertyDescriptor(object, key) !== undefined;
}

function textBlocks(text) {
  return [{ type: 'text', text }];
}

// The value code gets for a host answer of tools.call (the shapes of upstream/values.py).
function toolValue(answer) {
  if (answer === null || typeof answer !== 'object') return answer;
  if (hasOwnKey(answer, 'structured')) {
    const value = answer.structured;
    const blocks = answer.content;
    if (value !== null && typeof value === 'object' && !hasOwnKey(value, 'content')) {
      if (blocks === 'json') {
        ReflectDefineProperty(value, 'content', { __proto__: null, configurable: true, enumerable: false,
          get() { return textBlocks(JSONStringify(value)); } });
      } else {
        ReflectDefineProperty(value, 'content', { __proto__: null, value: blocks, writable: true,
          configurable: true, enumerable: false });
      }
    }
    return value;
  }
  if (hasOwnKey(answer, 'json')) {
    const value = answer.json;
    const text = '' + answer.text;
    if (value !== null && typeof value === 'object') {
      if (!hasOwnKey(value, 'content')) {
        ReflectDefineProperty(value, 'content', { __proto__: null, value: textBlocks(text), writable: true,
          configurable: true, enumerable: false });
      }
      // The text itself, so that JSON.parse(result) and `${result}` work as they would on the text.
      ReflectDefineProperty(value, 'toString', { __proto__: null, value: () => text, writable: true,
        configurable: true, enumerable: false });
    }
    return value;
  }
  if (hasOwnKey(answer, 'text')) return '' + answer.text;
  const blocks = ArrayIsArray(answer.content) ? answer.content : [];
  const texts = list();
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i];
    if (block !== null && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') {
      ArrayPrototypePush(texts, block.text);
    }
  }
  return { content: blocks, text: ArrayPrototypeJoin(texts, '\n') };
}

function installTools(manifest) {
  const root = ObjectCreate(null);
  const names = [];
  for (let i = 0; i < manifest.servers.length; i++) {
    const server = manifest.servers[i];
    if (server === null || typeof server !== 'object' || typeof server.name !== 'string') continue;
    root[server.name] = serverObject(server);
    ArrayPrototypePush(names, server.name);
  }
  ReflectDefineProperty(root, '$search', { __proto__: null, value: searchTools, enumerable: false });
  ReflectDefineProperty(root, '$describe', { __proto__: null, value: describeTool, enumerable: false });
  const listing = ArrayPrototypeJoin(names, ', ');
  const proxy = new ProxyCtor(root, {
    __proto__: null,
    get(target, key) {
      const value = target[key];
      if (value !== undefined || isProbe(key)) return value;
      throw new ToolError('there is no server named ' + JSONStringify(key) + ' in `tools`; its servers are: ' +
        listing + '. tools.$search(words) finds a tool by what it does',
        { __proto__: null, server: key, code: 'unknown_server' });
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
  });
  defineGlobalValue('tools', proxy);
  defineGlobalValue('ToolError', ToolError);
}

function serverObject(server) {
  const serverName = server.name;
  const target = ObjectCreate(null);
  const toolNames = ArrayIsArray(server.tools) ? server.tools : [];
  for (let i = 0; i < toolNames.length; i++) {
    const name = toolNames[i];
    if (typeof name === 'string') target[name] = toolFunction(serverName, name);
  }
  const aliases = server.aliases !== null && typeof server.aliases === 'object' ? server.aliases : {};
  const declared = ObjectKeys(aliases);
  for (let i = 0; i < declared.length; i++) {
    const real = aliases[declared[i]];
    if (typeof real === 'string' && target[real] !== undefined && target[declared[i]] === undefined) {
      target[declared[i]] = target[real];
    }
  }
  // A server that was not reachable when the run began: its tools are unknown here, so any name
  // is tried, and the host says whether the server answers now.
  const unknownTools = typeof server.unavailable === 'string';
  const listing = toolNames.length > 40
    ? ArrayPrototypeJoin(ArraySlice(toolNames, 0, 40), ', ') + ', … (' + toolNames.length + ' in all)'
    : ArrayPrototypeJoin(toolNames, ', ');
  return new ProxyCtor(target, {
    __proto__: null,
    get(object, key) {
      const value = object[key];
      if (value !== undefined || isProbe(key)) return value;
      if (unknownTools) {
        const created = toolFunction(serverName, key);
        object[key] = created;
        return created;
      }
      throw new ToolError('server ' + JSONStringify(serverName) + ' has no tool named ' + JSONStringify(key) +
        '; its tools are: ' + listing + '. tools.$search(words) finds a tool by what it does',
        { __proto__: null, server: serverName, tool: key, code: server.unusable === true ? 'unavailable' : 'unknown_tool' });
    },
    set() { return false; },
    defineProperty() { return false; },
    deleteProperty() { return false; },
  });
}

const ArraySlice = uncurryThis(ArrayPrototype.slice);

function toolFunction(serverName, toolName) {
  const label = 'tools' + accessPath(serverName) + accessPath(toolName);
  // A method-shorthand function has no `prototype` and cannot be called with `new`.
  const holder = {
    [toolName](args) {
      let copy;
      try {
        copy = cleanArguments(args, label);
      } catch (error) {
        return PromiseReject(error);
      }
      return ReflectApply(PromisePrototypeThen, toolCall('tools.call',
        { __proto__: null, server: serverName, tool: toolName, arguments: copy }, serverName, toolName),
      asList([toolValue]));
    },
  };
  return holder[toolName];
}

function accessPath(name) {
  return RegExpPrototypeExec(IDENTIFIER, name) !== null ? '.' + name : '[' + JSONStringify(name) + ']';
}

const IDENTIFIER = new RegExpCtor('^[A-Za-z_$][A-Za-z0-9_$]*$');

// The arguments as plain JSON values, read once: getters and toJSON run here, in the model's own
// code, and what the host receives is data.
function cleanArguments(args, label) {
  if (args === undefined) return ObjectCreate(null);
  if (args === null || typeof args !== 'object' || ArrayIsArray(args)) {
    throw new TypeErrorCtor(label + ' takes one object of arguments, as its input schema describes (got ' +
      (args === null ? 'null' : ArrayIsArray(args) ? 'an array' : typeof args) + '); ' +
      'tools.$describe(name) shows the schema');
  }
  let text;
  try {
    text = JSONStringify(args);
  } catch (error) {
    throw new TypeErrorCtor(label + "'s arguments must be JSON values: " + thrownMessage(error));
  }
  const copy = JSONParse(text);
  if (copy === null || typeof copy !== 'object' || ArrayIsArray(copy)) {
    throw new TypeErrorCtor(label + ' takes one object of arguments; its toJSON gave ' +
      (copy === null ? 'null' : ArrayIsArray(copy) ? 'an array' : typeof copy));
  }
  return copy;
}

function searchTools(query, options) {
  const text = query === undefined ? '' : '' + query;
  let limit = 20;
  if (options !== null && typeof options === 'object' && typeof options.limit === 'number') limit = options.limit;
  return toolCall('tools.search', { __proto__: null, query: text, limit }, undefined, undefined);
}

function describeTool(name) {
  if (typeof name !== 'string' || name === '') {
    return PromiseReject(new TypeErrorCtor('tools.$describe takes a tool name ("server.tool" or "tool"), ' +
      'or a server name for all its tools'));
  }
  return toolCall('tools.describe', { __proto__: null, name }, undefined, undefined);
}

// One host call; every failure becomes a ToolError with the host's fields.
function toolCall(kind, payload, serverName, toolName) {
  return ReflectApply(PromisePrototypeThen, hostCall(kind, payload), asList([undefined, (error) => {
    const fields = ObjectCreate(null);
    if (error !== null && typeof error === 'object') {
      const keys = ObjectKeys(error);
      for (let i = 0; i < keys.length; i++) fields[keys[i]] = error[keys[i]];
      if (fields.code === undefined && typeof error.name === 'string' && error.name !== 'ToolError' &&
          error.name !== 'Error') {
        fields.code = error.name;
      }
    }
    if (typeof fields.code !== 'string') fields.code = 'error';
    if (serverName !== undefined && fields.server === undefined) fields.server = serverName;
    if (toolName !== undefined && fields.tool === undefined) fields.tool = toolName;
    throw new ToolError(error !== null && typeof error === 'object' && typeof error.message === 'string'
      ? error.message : 'the tool call failed', fields);
  }]));
}

// A code-mode job as the worker sends one: an awaited call of one tool, with the options of
// such a job (the manifest names a server `w` with a tool `t`).
const WARM_UP_TOOLS_CODE = 'const r = await tools.w.t({ n: 1 });\nr.n';
const WARM_UP_TOOLS_JOB = JSONStringify({
  code: WARM_UP_TOOLS_CODE,
  input: '',
  options: JSONStringify({
    outputCap: 65536,
    seed: StringPrototypeRepeat('0', 64),
    completion: [WARM_UP_TOOLS_CODE.length - 3, WARM_UP_TOOLS_CODE.length, 'expression'],
    tools: { servers: [{ name: 'w', tools: ['t'], aliases: {}, unavailable: null, unusable: false }] },
    charts: true,
    host: true,
  }),
  files: '',
});

// Runs a code-mode job before the real one arrives, in a fresh isolate of a worker that has run
// code-mode jobs lately and has nothing to do (workerRequest 'warmUpTools'), so that V8 has
// compiled the runtime's tools, host-call and asynchronous paths, which a fresh isolate
// otherwise compiles while the job waits. The call is answered here, at once; nothing leaves
// the isolate. What the run installs is taken away again, as the next job may be a plain one.
// Its end comes in a task of its own, after this returns, and is kept (silent). Returns '' when
// the run went as it should, otherwise a description for the log.
function warmUpTools() {
  const notify = hostState.notify;
  hostState.notify = answerWarmUpCall;
  let text;
  try {
    text = runJobText(WARM_UP_TOOLS_JOB);
  } catch (error) {
    text = 'failed: ' + describeThrown(error);
  } finally {
    hostState.notify = notify;
  }
  runState.silent = true;
  ReflectDeleteProperty(StringPrototype, 'content');
  ReflectDeleteProperty(globalObject, 'tools');
  ReflectDeleteProperty(globalObject, 'ToolError');
  return text === '' ? '' : 'the code-mode warm-up run ended at once: ' + text;
}

function answerWarmUpCall(request) {
  const id = JSONParse(request).id;
  settleHostCall('{"id":' + id + ',"ok":true,"value":{"structured":{"n":1},"content":"json"}}');
}
