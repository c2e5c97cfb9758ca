// Spending by category over every row of a bank export, summed in cents so that no binary rounding creeps in.
const cents = {};
for (const row of files['exports/bank-2025.csv'].rows) {
  cents[row.Category] = (cents[row.Category] ?? 0) + Math.round(Number(row.Amount) * 100);
}
Object.entries(cents)
  .sort((a, b) => a[1] - b[1])
  .map(([category, total]) => `${category} ${(total / 100).toFixed(2)}`)
  .join(', ')
