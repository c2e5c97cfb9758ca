const encoded = btoa('Hello, World!');
console.log(encoded);
const decoded = atob('U29tZSBiYXNlNjQgdGV4dCB3aXRoIHBhZGRpbmc=');
console.log(decoded);
const urlSafe = btoa('subjects?_d').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
[encoded, decoded, urlSafe];
