const a = Date.UTC(2024, 0, 1);
const b = Date.UTC(2024, 11, 31);
const days = (b - a) / 86_400_000;
const weeks = Math.floor(days / 7);
console.log(`${days} days = ${weeks} weeks and ${days % 7} days`);
days + 1; // inclusive
