const text = 'Hi €';
const utf16 = Buffer.from(text, 'utf16le');
console.log(utf16, utf16.length);
console.log(utf16.toString('ucs2'));
utf16.swap16().toString('hex');
