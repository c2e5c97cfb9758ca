const crypto = require('crypto');

function gitBlobHash(content) {
  const body = Buffer.from(content, 'utf8');
  const header = `blob ${body.length}\0`;
  return crypto.createHash('sha1').update(header).update(body).digest('hex');
}

console.log(gitBlobHash(''));
console.log(gitBlobHash('hello world\n'));
gitBlobHash('# Project\n\nSome text.\n');
