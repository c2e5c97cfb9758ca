const { urlToHttpOptions } = require('url');
const options = urlToHttpOptions(new URL('https://admin:pw@api.example.com:8443/v2/users?active=true'));
console.log(options);
[options.hostname, options.port, options.path, options.auth];
