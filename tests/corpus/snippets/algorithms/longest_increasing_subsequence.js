function lis(nums) {
  const tails = [];
  for (const x of nums) {
    let lo = 0, hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < x) lo = mid + 1; else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}
[lis([10, 9, 2, 5, 3, 7, 101, 18]), lis([0, 1, 0, 3, 2, 3]), lis([7, 7, 7, 7])];
