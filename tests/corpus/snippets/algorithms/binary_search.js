function binarySearch(arr, target) {
  let lo = 0, hi = arr.length - 1;
  let steps = 0;
  while (lo <= hi) {
    steps++;
    const mid = (lo + hi) >>> 1;
    if (arr[mid] === target) return { index: mid, steps };
    if (arr[mid] < target) lo = mid + 1; else hi = mid - 1;
  }
  return { index: -1, steps };
}
const arr = Array.from({ length: 1000 }, (_, i) => i * 3);
console.log(binarySearch(arr, 2997));
console.log(binarySearch(arr, 1000));
binarySearch(arr, 42);
