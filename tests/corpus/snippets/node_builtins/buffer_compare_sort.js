const names = ['banana', 'Apple', 'cherry', 'apple'].map((n) => Buffer.from(n));
names.sort(Buffer.compare);
console.log(names.map((b) => b.toString()));
console.log(Buffer.from('abc').compare(Buffer.from('abd')), Buffer.from('b').equals(Buffer.from('b')));
names.map(String);
