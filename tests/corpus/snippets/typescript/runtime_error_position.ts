interface Item { name: string; qty: number }
const items: Item[] = [{ name: 'a', qty: 1 }, { name: 'b', qty: -2 }];
function check(item: Item): void {
  if (item.qty < 0) throw new RangeError(`negative quantity for ${item.name}`);
}
items.forEach((item: Item) => check(item));
