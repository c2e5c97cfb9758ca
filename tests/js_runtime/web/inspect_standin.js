// A small stand-in for Node's util.inspect, enough for the shapes web modules print (strings, numbers, plain
// objects, arrays, objects with a Symbol.for('nodejs.util.inspect.custom') method), with Node's layout rules
// for those shapes: 80-column single lines, two-space indentation, [Object]/[Array] past the depth.
(function () {
  'use strict';
  const custom = Symbol.for('nodejs.util.inspect.custom');
  const quote = (s) => "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  const layout = (base, open, close, items) => {
    if (items.length === 0) return (base ? base + ' ' : '') + open + close;
    const start = items.length + open.length + base.length + 10;
    const total = items.reduce((n, s) => n + s.length, items.length + start);
    if (total <= 80 && !items.some((s) => s.includes('\n'))) {
      return (base ? base + ' ' : '') + open + ' ' + items.join(', ') + ' ' + close;
    }
    return (base ? base + ' ' : '') + open + '\n  ' + items.map((s) => s.replace(/\n/g, '\n  ')).join(',\n  ') + '\n' + close;
  };
  function format(v, opts, recurse) {
    if (typeof v === 'string') return quote(v);
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return String(v);
    const depth = opts.depth === undefined ? 2 : opts.depth;
    if (typeof v[custom] === 'function') {
      const r = v[custom](depth - recurse, { ...opts, depth, stylize: (s) => s, breakLength: 80 }, inspect);
      if (r !== v) return typeof r === 'string' ? r : format(r, opts, recurse);
    }
    const array = Array.isArray(v);
    const proto = Object.getPrototypeOf(v);
    const name = proto && proto.constructor && proto.constructor.name;
    const base = array || name === 'Object' || !name ? '' : name;
    const keys = Object.keys(v);
    if (keys.length === 0) return layout(base, array ? '[' : '{', array ? ']' : '}', []);
    if (recurse > depth) return array ? '[Array]' : '[' + (base || 'Object') + ']';
    const items = keys.map((k) => (array ? '' : (/^[A-Za-z_$][\w$]*$/.test(k) ? k : quote(k)) + ': ') +
      format(v[k], opts, recurse + 1));
    return layout(base, array ? '[' : '{', array ? ']' : '}', items);
  }
  function inspect(v, opts) { return format(v, opts || {}, 0); }
  return inspect;
})()
