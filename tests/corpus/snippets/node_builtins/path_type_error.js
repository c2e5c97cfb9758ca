const path = require('path');
try {
  path.join('a', 42);
} catch (err) {
  console.log(err.name);
  console.log(err.code);
  console.log(err.message);
}
path.join('a', String(42));
