const inventory = new Map<string, number>([
  ['apples', 12],
  ['pears', 0],
]);

const apples = inventory.get('apples')!;
const words = 'alpha beta gamma'.match(/\w+/g)!;
const longest = words.sort((a, b) => b.length - a.length)[0]!;
let maybe: string | null = 'value';
console.log(maybe!.toUpperCase());
({ apples: apples * 2, longest, count: words!.length });
