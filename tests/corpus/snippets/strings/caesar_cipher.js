function caesar(str, shift) {
  return str.replace(/[a-z]/gi, ch => {
    const base = ch <= 'Z' ? 65 : 97;
    return String.fromCharCode(((ch.charCodeAt(0) - base + shift) % 26 + 26) % 26 + base);
  });
}
const encoded = caesar('Hello, World! Attack at dawn.', 13);
console.log(encoded);
caesar(encoded, -13);
