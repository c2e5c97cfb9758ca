const crypto = require('crypto');

const text = 'café';
const utf8 = crypto.createHash('sha1').update(text).digest('hex');
const latin1 = crypto.createHash('sha1').update(text, 'latin1').digest('hex');
const fromBytes = crypto.createHash('sha1').update(Buffer.from(text, 'latin1')).digest('hex');
({ utf8, latin1, same: latin1 === fromBytes, differ: utf8 !== latin1 });
