const crypto = require('crypto');

const authToken = '12345';
const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const params = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };

const data = Object.keys(params).sort().reduce((acc, key) => acc + key + params[key], url);
const signature = crypto.createHmac('sha1', authToken).update(Buffer.from(data, 'utf-8')).digest('base64');
console.log(data.length);
signature;
