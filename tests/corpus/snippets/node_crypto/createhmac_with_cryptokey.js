const crypto = require('crypto');

const key = await crypto.subtle.importKey('raw', Buffer.from('shared-secret'), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
const viaNode = crypto.createHmac('sha256', key).update('data').digest('hex');
const viaWeb = Buffer.from(await crypto.subtle.sign('HMAC', key, Buffer.from('data'))).toString('hex');
[viaNode === viaWeb, viaNode.slice(0, 16)];
