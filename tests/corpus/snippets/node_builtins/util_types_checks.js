const { types } = require('util');
const samples = { date: new Date(), regex: /x/g, map: new Map(), promise: Promise.resolve(), bytes: new Uint8Array(2), asyncFn: async () => {} };
const report = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, [types.isDate(v), types.isRegExp(v), types.isMap(v), types.isPromise(v), types.isTypedArray(v), types.isAsyncFunction(v)]]));
console.log(report);
report;
