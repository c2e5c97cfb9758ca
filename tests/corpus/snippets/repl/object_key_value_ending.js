const words = 'to be or not to be'.split(' ');
const unique = new Set(words);
{ words: words.length, unique: unique.size, ratio: unique.size / words.length }
