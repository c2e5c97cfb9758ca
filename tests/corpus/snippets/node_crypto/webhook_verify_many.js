const crypto = require('crypto');

const secret = input.secret;
const sign = (body) => crypto.createHmac('sha256', secret).update(body).digest('hex');

const results = input.deliveries.map(({ id, body, signature }) => {
  const expected = Buffer.from(sign(body), 'hex');
  const given = Buffer.from(signature, 'hex');
  const ok = given.length === expected.length && crypto.timingSafeEqual(given, expected);
  return { id, ok };
});
console.log(results.filter((r) => !r.ok).map((r) => r.id));
results;
