function add(a: number, b: number): number {
  return a + b;
}
const values: number[] = [1, 2, 3, 4.5];
let total: number = 0;
for (const v of values) total = add(total, v);
const label: string = `total=${total}`;
console.log(label);
total;
