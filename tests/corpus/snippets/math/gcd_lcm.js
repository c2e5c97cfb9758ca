const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
const lcm = (a, b) => (a / gcd(a, b)) * b;
const nums = [12, 18, 30, 42];
const g = nums.reduce(gcd);
const l = nums.reduce(lcm);
console.log(`gcd=${g} lcm=${l}`);
[g, l];
