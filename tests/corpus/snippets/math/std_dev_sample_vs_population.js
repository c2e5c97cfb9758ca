const data = [2, 4, 4, 4, 5, 5, 7, 9];
const mean = data.reduce((a, b) => a + b) / data.length;
const sq = data.map(x => (x - mean) ** 2).reduce((a, b) => a + b);
const populationSD = Math.sqrt(sq / data.length);
const sampleSD = Math.sqrt(sq / (data.length - 1));
console.log(`mean=${mean}`);
console.log(`population σ=${populationSD}`);
console.log(`sample s=${sampleSD.toFixed(6)}`);
