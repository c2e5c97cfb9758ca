const { createHash, randomBytes } = await import('node:crypto');

const salt = randomBytes(8).toString('hex');
const digest = createHash('md5').update('abc').digest('hex');
[salt.length, digest];
