const crypto = require('crypto');

const wanted = ['md5', 'sha1', 'sha256', 'sha512'];
const available = crypto.getHashes();
wanted.map((h) => `${h}: ${available.includes(h) ? 'yes' : 'no'}`);
