const items = [{ name: 'pen', price: 1.5 }, { name: 'book', price: 12 }];
const total = items.reduce((s, i) => s + i.price, 0);
`Total for ${items.length} items: $${total.toFixed(2)}`
