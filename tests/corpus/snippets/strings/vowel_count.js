const sentence = 'The quick brown fox jumps over the lazy dog';
const vowels = sentence.match(/[aeiou]/gi).length;
const consonants = sentence.match(/[b-df-hj-np-tv-z]/gi).length;
const letters = new Set(sentence.toLowerCase().replace(/[^a-z]/g, ''));
console.log(`vowels: ${vowels}, consonants: ${consonants}`);
console.log(`pangram: ${letters.size === 26}`);
