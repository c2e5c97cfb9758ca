const { fileURLToPath, pathToFileURL } = require('url');
const fileUrl = pathToFileURL('/home/me/My Documents/notes #1.txt');
console.log(fileUrl.href);
const back = fileURLToPath(fileUrl);
console.log(back);
back === '/home/me/My Documents/notes #1.txt';
