import { createHash } from 'node:crypto';

const digest = createHash('sha256').update('hello').digest('hex');
console.log(digest);
