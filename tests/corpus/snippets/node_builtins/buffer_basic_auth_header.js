const username = 'alice';
const password = 's3cr3t:pa55';
const header = 'Basic ' + Buffer.from(`${username}:${password}`).toString('base64');
console.log(header);
const [user, ...rest] = Buffer.from(header.slice(6), 'base64').toString().split(':');
({ header, user, pass: rest.join(':') });
