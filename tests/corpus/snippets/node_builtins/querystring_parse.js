const querystring = require('querystring');
const parsed = querystring.parse('name=Jane%20Doe&age=32&tags=js&tags=node&empty=&flag');
console.log(parsed);
console.log(parsed.tags, Object.getPrototypeOf(parsed));
({ ...parsed });
