const original = Buffer.from('hello world');
const view = original.subarray(0, 5);
view[0] = 'J'.charCodeAt(0);
const copy = Buffer.from(original.subarray(6));
copy[0] = 'W'.charCodeAt(0);
console.log(original.toString(), view.toString(), copy.toString());
[original.toString(), copy.toString()];
