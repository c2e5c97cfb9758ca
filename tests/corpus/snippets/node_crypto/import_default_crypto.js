import crypto from 'crypto';

const id = crypto.randomUUID();
const sig = crypto.createHmac('sha1', 'key').update('value').digest('hex');
[id.length, sig];
