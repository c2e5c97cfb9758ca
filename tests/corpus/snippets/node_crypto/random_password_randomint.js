const crypto = require('crypto');

const lower = 'abcdefghijklmnopqrstuvwxyz';
const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const digits = '0123456789';
const symbols = '!@#$%^&*';
const all = lower + upper + digits + symbols;

function generatePassword(length = 16) {
  const chars = [lower, upper, digits, symbols].map((set) => set[crypto.randomInt(set.length)]);
  while (chars.length < length) chars.push(all[crypto.randomInt(0, all.length)]);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

const pw = generatePassword(20);
console.log(pw.length);
[/[a-z]/, /[A-Z]/, /[0-9]/, /[!@#$%^&*]/].every((re) => re.test(pw));
