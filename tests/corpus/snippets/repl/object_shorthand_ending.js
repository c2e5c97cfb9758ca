const data = [12, 7, 3, 21, 8, 15];
const mean = data.reduce((a, b) => a + b, 0) / data.length;
const sorted = [...data].sort((a, b) => a - b);
const median = (sorted[2] + sorted[3]) / 2;
{ mean, median }
