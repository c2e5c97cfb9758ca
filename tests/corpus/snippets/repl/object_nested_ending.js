const temps = [22.1, 19.8, 25.4, 23.3, 18.9];
const min = Math.min(...temps);
const max = Math.max(...temps);
const n = temps.length;
{ stats: { min, max, range: +(max - min).toFixed(1) }, n, spread: [min, max] }
