const inputs = ['YWJj', 'YWJjZA', 'YWJjZA==', 'YW Jj\nZA==', 'YWJj!!ZA'];
const decoded = inputs.map((s) => Buffer.from(s, 'base64').toString());
console.log(decoded);
decoded;
