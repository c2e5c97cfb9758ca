const crypto = require('node:crypto');

const endpointSecret = 'whsec_test_secret';
const body = JSON.stringify({ id: 'evt_123', type: 'payment_intent.succeeded', data: { amount: 2000 } });
const timestamp = 1700000000;

// What Stripe would send: t=<timestamp>,v1=<hmac of "timestamp.body">
const v1 = crypto.createHmac('sha256', endpointSecret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
const header = `t=${timestamp},v1=${v1}`;

function parseHeader(header) {
  return Object.fromEntries(header.split(',').map((part) => part.split('=')));
}

function verify(rawBody, header, secret, now, toleranceSeconds = 300) {
  const { t, v1: signature } = parseHeader(header);
  if (Math.abs(now - Number(t)) > toleranceSeconds) return { ok: false, reason: 'timestamp outside tolerance' };
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const received = Buffer.from(signature, 'hex');
  if (received.length !== expected.length || !crypto.timingSafeEqual(received, expected)) {
    return { ok: false, reason: 'signature mismatch' };
  }
  return { ok: true };
}

console.log(header);
console.log(verify(body, header, endpointSecret, timestamp + 10));
console.log(verify(body, header, endpointSecret, timestamp + 1000));
console.log(verify(body.replace('2000', '9999'), header, endpointSecret, timestamp));
