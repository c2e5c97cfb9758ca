function groupBy<T, K extends string | number>(items: T[], keyFn: (item: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const item of items) {
    const key = keyFn(item);
    (out[key] ||= []).push(item);
  }
  return out;
}

function first<T>(xs: T[]): T | undefined {
  return xs[0];
}

const words = ['apple', 'avocado', 'banana', 'blueberry', 'cherry'];
const grouped = groupBy(words, w => w[0]);
console.log(first<string>(words));
grouped;
