const buf = Buffer.from('héllo', 'utf8');
console.log(buf.length);
buf.toString('hex');
