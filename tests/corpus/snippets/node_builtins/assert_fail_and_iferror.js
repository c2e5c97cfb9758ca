const assert = require('assert');
const errors = [];
try { assert.fail('not implemented yet'); } catch (e) { errors.push(e.message); }
try { assert.ifError(null); errors.push('ifError(null) ok'); } catch (e) { errors.push('unexpected'); }
try { assert.ifError(new Error('db down')); } catch (e) { errors.push(e.message); }
console.log(errors);
errors;
