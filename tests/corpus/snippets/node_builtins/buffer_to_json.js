const buf = Buffer.from('Hi!');
const json = JSON.stringify({ payload: buf });
console.log(json);
const back = Buffer.from(JSON.parse(json).payload.data);
console.log(back.toString());
back.equals(buf);
