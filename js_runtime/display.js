// The global `display(value)`: the code shows a picture. A Vega-Lite or Vega specification
// (an object), SVG markup (a string) or PNG/JPEG bytes (a Uint8Array, Buffer or ArrayBuffer)
// is copied, as plain data, into the run's list of images; the host takes the list after the
// run (takeDisplays), renders what needs rendering outside the isolate and puts each image in
// the tool result, in order. Nothing here draws or loads anything.

const RangeErrorCtor = RangeError;
const MAX_DISPLAYS = 8;
const MAX_DISPLAY_CHARS = 8 * 1024 * 1024;
const ArrayBufferCtor = ArrayBuffer;
const TypedArrayPrototypeToBase64 = Uint8Array.prototype.toBase64;

const displayState = { __proto__: null, items: list(), chars: 0, charts: false };

// group: eager
function resetDisplays(charts) {
  displayState.items = list();
  displayState.chars = 0;
  displayState.charts = charts === true;
}

// group: eager
function display(value) {
  if (displayState.items.length >= MAX_DISPLAYS) {
    throw new RangeErrorCtor('display() was called more than ' + MAX_DISPLAYS + ' times in this call, the most ' +
      'one call may show: combine charts (Vega-Lite concat or facet), or show the rest in another call');
  }
  const item = displayItem(value);
  const chars = item.data.length;
  if (displayState.chars + chars > MAX_DISPLAY_CHARS) {
    throw new RangeErrorCtor('the images of this call would come to more than ' + MAX_DISPLAY_CHARS +
      ' characters: lower width, height or scale, aggregate the data before charting it, or show fewer');
  }
  displayState.chars += chars;
  ArrayPrototypePush(displayState.items, item);
  return undefined;
}

function displayItem(value) {
  const bytes = displayBytes(value);
  if (bytes !== undefined) {
    const kind = imageKind(bytes);
    if (kind === undefined) {
      throw new TypeErrorCtor('display() shows PNG or JPEG bytes; these bytes are neither (render other formats ' +
        'as SVG or a Vega-Lite chart)');
    }
    return { __proto__: null, kind, data: ReflectApply(TypedArrayPrototypeToBase64, bytes, []) };
  }
  if (typeof value === 'string') {
    if (RegExpPrototypeExec(SVG_START, value) === null) {
      throw new TypeErrorCtor('display() takes SVG markup as a string (starting with <svg); to show text, ' +
        'console.log it or return it');
    }
    requireCharts('SVG');
    return { __proto__: null, kind: 'svg', data: value };
  }
  if (value === null || typeof value !== 'object' || ArrayIsArray(value)) {
    throw new TypeErrorCtor('display() takes a Vega-Lite or Vega specification (an object), SVG markup (a ' +
      'string) or PNG/JPEG bytes (a Uint8Array); got ' + (value === null ? 'null' : ArrayIsArray(value)
      ? 'an array' : typeof value));
  }
  let text;
  try {
    text = JSONStringify(value);
  } catch (error) {
    throw new TypeErrorCtor('a chart specification must be JSON data: ' + thrownMessage(error));
  }
  const spec = JSONParse(text);
  const kind = specKind(spec);
  if (kind === undefined) {
    throw new TypeErrorCtor('display() did not recognise this object as a chart: a Vega-Lite specification has ' +
      '`mark` (or `layer`, `facet`, `concat`, `repeat`) and a Vega one `marks`; set `$schema` to say which');
  }
  requireCharts('a ' + (kind === 'vega' ? 'Vega' : 'Vega-Lite') + ' chart');
  return { __proto__: null, kind, data: text };
}

const SVG_START = new RegExpCtor('^\\s*(?:<\\?xml[^>]*>\\s*)?(?:<!--[\\s\\S]*?-->\\s*)*<svg[\\s>]', 'i');

function requireCharts(what) {
  if (!displayState.charts) {
    throw new ErrorCtor('display() of ' + what + ' needs the server\'s chart renderer, which is not installed: ' +
      "the server's operator can add it with pip install 'mcp-v8-sandbox[charts]'. PNG or JPEG bytes " +
      'display without it');
  }
}

function displayBytes(value) {
  if (value instanceof Uint8ArrayCtor) return value;
  if (value instanceof ArrayBufferCtor) return new Uint8ArrayCtor(value);
  return undefined;
}

function imageKind(bytes) {
  const length = TypedArrayPrototypeGetLength(bytes);
  if (length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

function specKind(spec) {
  if (spec === null || typeof spec !== 'object' || ArrayIsArray(spec)) return undefined;
  const schema = typeof spec.$schema === 'string' ? spec.$schema : '';
  if (StringPrototypeIncludes(schema, 'vega-lite')) return 'vega-lite';
  if (StringPrototypeIncludes(schema, '/vega/')) return 'vega';
  if ('marks' in spec) return 'vega';
  const keys = ['mark', 'layer', 'facet', 'concat', 'hconcat', 'vconcat', 'repeat'];
  for (let i = 0; i < keys.length; i++) if (keys[i] in spec) return 'vega-lite';
  return undefined;
}

// The worker's call, after the run: the images as JSON text, and the list emptied.
function takeDisplays() {
  const items = displayState.items;
  displayState.items = list();
  displayState.chars = 0;
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += ',';
    text += '{"kind":' + jsonString(items[i].kind) + ',"data":' + jsonString(items[i].data) + '}';
  }
  return text + ']';
}
