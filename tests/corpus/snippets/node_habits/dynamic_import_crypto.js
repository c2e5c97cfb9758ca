const { createHash } = await import('crypto');
createHash('md5').update('abc').digest('hex');
