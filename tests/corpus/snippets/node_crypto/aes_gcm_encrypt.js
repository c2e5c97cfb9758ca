const crypto = require('crypto');

const key = crypto.randomBytes(32);
const iv = crypto.randomBytes(12);
const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
const encrypted = Buffer.concat([cipher.update('secret message', 'utf8'), cipher.final()]);
const tag = cipher.getAuthTag();
console.log(encrypted.length, tag.length);
