const key = Buffer.from('k3y');
const message = Buffer.from('attack at dawn');
const xor = (buf) => Buffer.from(buf.map((byte, i) => byte ^ key[i % key.length]));
const encrypted = xor(message);
console.log(encrypted.toString('hex'));
xor(encrypted).toString();
