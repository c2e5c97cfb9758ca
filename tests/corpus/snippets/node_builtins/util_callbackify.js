const util = require('util');
async function double(x) {
  if (typeof x !== 'number') throw new TypeError('not a number');
  return x * 2;
}
const cbDouble = util.callbackify(double);
const results = await new Promise((resolve) => {
  const out = [];
  cbDouble(21, (err, value) => {
    out.push([err, value]);
    cbDouble('x', (err2) => {
      out.push([err2.name, err2.message]);
      resolve(out);
    });
  });
});
console.log(results);
results;
