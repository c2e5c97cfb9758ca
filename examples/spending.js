// Code mode: the filesystem server reads the bank export, the sandbox totals it by category (in cents, so no
// binary rounding creeps in), and the everything server's get-sum adds two of the totals. Only the answer
// reaches the model, not the 567 rows.
const { content: listing } = await tools.files.list_directory({ path: 'exports' });
const { content: csv } = await tools.files.read_text_file({ path: 'exports/bank-2025.csv' });
const cents = {};
for (const line of csv.trim().split('\n').slice(1)) {
  const cells = line.split(',');
  const [category, amount] = cells.slice(-2); // the description before them may hold commas
  cents[category] = (cents[category] ?? 0) + Math.round(Number(amount) * 100);
}
const fixed = await tools.everything['get-sum']({ a: cents.rent / 100, b: cents.utilities / 100 });
({ listing, rent: cents.rent / 100, utilities: cents.utilities / 100, fixed })
