const data = Buffer.from('GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n');
const firstLineEnd = data.indexOf('\r\n');
const headerEnd = data.indexOf('\r\n\r\n');
console.log(firstLineEnd, headerEnd, data.includes('Host:'), data.lastIndexOf('\r\n'));
data.toString('utf8', 0, firstLineEnd).split(' ');
