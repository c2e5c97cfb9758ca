const crypto = require('crypto');

const secret = 'shpss_0123456789abcdef';
const rawBody = '{"id":820982911946154508,"email":"jon@example.com","total_price":"254.98"}';
const headerHmac = crypto.createHmac('sha256', secret).update(rawBody, 'utf8').digest('base64');

function isFromShopify(body, hmacHeader) {
  const digest = crypto.createHmac('sha256', secret).update(body, 'utf8').digest('base64');
  return crypto.timingSafeEqual(Buffer.from(digest), Buffer.from(hmacHeader));
}

console.log(headerHmac);
console.log(isFromShopify(rawBody, headerHmac));
isFromShopify(rawBody.replace('254.98', '0.01'), headerHmac);
