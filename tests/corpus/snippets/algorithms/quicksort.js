const quickSort = (arr) => {
  if (arr.length <= 1) return arr;
  const [pivot, ...rest] = arr;
  return [...quickSort(rest.filter(x => x < pivot)), pivot, ...quickSort(rest.filter(x => x >= pivot))];
};
const data = [38, 27, 43, 3, 9, 82, 10, 3, -5, 0];
const sorted = quickSort(data);
console.log(sorted.join(', '));
JSON.stringify(sorted) === JSON.stringify([...data].sort((a, b) => a - b));
