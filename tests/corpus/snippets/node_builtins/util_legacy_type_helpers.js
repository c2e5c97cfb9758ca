const util = require('util');
const values = [null, undefined, 0, 'x', [], {}, () => {}, new Date(), /r/, new Error('e')];
const rows = values.map((v) => [util.isNullOrUndefined(v), util.isPrimitive(v), util.isArray(v), util.isFunction(v), util.isDate(v), util.isRegExp(v), util.isError(v)]);
console.log(rows);
rows.filter((r) => r[1]).length;
