const util = require('util');
const broken = 'ok\ud800 then \udfff end';
const fixed = util.toUSVString(broken);
console.log(fixed);
[...fixed].map((c) => c.codePointAt(0).toString(16));
