const util = require('util');
function fetchUser(id, callback) {
  setTimeout(() => {
    if (id < 0) return callback(new Error('invalid id'));
    callback(null, { id, name: `user${id}` });
  }, 5);
}
const fetchUserAsync = util.promisify(fetchUser);
const user = await fetchUserAsync(7);
console.log(user);
let failure;
try { await fetchUserAsync(-1); } catch (e) { failure = e.message; }
({ user, failure });
