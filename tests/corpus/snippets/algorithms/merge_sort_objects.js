function mergeSort(arr, key) {
  if (arr.length < 2) return arr;
  const mid = Math.floor(arr.length / 2);
  const left = mergeSort(arr.slice(0, mid), key), right = mergeSort(arr.slice(mid), key);
  const out = [];
  while (left.length && right.length) out.push(left[0][key] <= right[0][key] ? left.shift() : right.shift());
  return [...out, ...left, ...right];
}
const people = [
  { name: 'Zoe', age: 31 }, { name: 'Adam', age: 25 }, { name: 'Mia', age: 31 }, { name: 'Liam', age: 19 },
];
mergeSort(people, 'age').map(p => `${p.name} (${p.age})`);
