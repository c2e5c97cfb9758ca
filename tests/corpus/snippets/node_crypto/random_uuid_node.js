const { randomUUID } = require('node:crypto');
const id = randomUUID();
console.log(id);
/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id);
