const crypto = require('crypto');

function etag(body) {
  const hash = crypto.createHash('md5').update(body, 'utf8').digest('base64').substring(0, 27);
  return `"${Buffer.byteLength(body).toString(16)}-${hash}"`;
}

const body = JSON.stringify({ users: [{ id: 1, name: 'Ana' }, { id: 2, name: 'Bo' }] });
etag(body);
