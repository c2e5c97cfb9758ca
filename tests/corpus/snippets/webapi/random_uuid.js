const id = crypto.randomUUID();
console.log(id);
const ids = new Set(Array.from({ length: 100 }, () => crypto.randomUUID()));
ids.size;
