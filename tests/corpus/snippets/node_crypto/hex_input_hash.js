const crypto = require('crypto');

// Hash the bytes that a hex string stands for, not the hex text.
const hexBlock = '0100000081cd02ab7e569e8bcd9317e2fe99f2de44d49ab2b8851ba4a308000000000000e320b6c2fffc8d750423db8b1eb942ae710e951ed797f7affc8892b0f1fc122bc7f5d74df2b9441a42a14695';
const once = crypto.createHash('sha256').update(hexBlock, 'hex').digest();
const twice = crypto.createHash('sha256').update(once).digest();
Buffer.from(twice).reverse().toString('hex');
