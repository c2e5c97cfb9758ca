function longestCommonPrefix(strs) {
  if (!strs.length) return '';
  let prefix = strs[0];
  for (const s of strs.slice(1)) {
    while (!s.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}
[
  longestCommonPrefix(['flower', 'flow', 'flight']),
  longestCommonPrefix(['interspecies', 'interstellar', 'interstate']),
  longestCommonPrefix(['dog', 'racecar', 'car']),
];
