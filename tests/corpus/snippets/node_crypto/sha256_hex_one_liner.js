const crypto = require('crypto');
crypto.createHash('sha256').update('The quick brown fox jumps over the lazy dog').digest('hex');
