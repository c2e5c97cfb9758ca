const items = ['apple', 'banana', 'cherry'];
let longest = '';
for (const item of items) {
  if (item.length > longest.length) {
    longest = item;
  }
}
longest;
