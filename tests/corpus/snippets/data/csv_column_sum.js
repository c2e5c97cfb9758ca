// Sum the "amount" column of the CSV passed in input
const lines = input.csv.trim().split('\n');
const headers = lines[0].split(',');
const amountIdx = headers.indexOf('amount');
let total = 0;
for (const line of lines.slice(1)) {
  const cols = line.split(',');
  total += parseFloat(cols[amountIdx]);
}
console.log(`Rows: ${lines.length - 1}`);
total.toFixed(2);
