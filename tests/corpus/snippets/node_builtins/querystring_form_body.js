const qs = require('querystring');
const body = 'username=alice&password=p%40ss+word&remember=on';
const form = qs.parse(body);
console.log(form.username, form.password, form.remember === 'on');
Object.entries(form);
