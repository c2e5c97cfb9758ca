const crypto = require('crypto');

const script = "alert('Hello, world.');";
const integrity = 'sha384-' + crypto.createHash('sha384').update(script, 'utf8').digest('base64');
console.log(`<script src="https://example.com/app.js" integrity="${integrity}" crossorigin="anonymous"></script>`);
integrity;
