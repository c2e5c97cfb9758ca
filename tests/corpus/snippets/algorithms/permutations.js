function permutations(arr) {
  if (arr.length <= 1) return [arr];
  return arr.flatMap((x, i) => permutations([...arr.slice(0, i), ...arr.slice(i + 1)]).map(p => [x, ...p]));
}
const perms = permutations(['a', 'b', 'c']).map(p => p.join(''));
console.log(perms);
permutations([1, 2, 3, 4, 5]).length;
