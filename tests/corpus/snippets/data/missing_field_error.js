const rows = input.rows;
const total = rows.reduce((sum, r) => sum + r.amount.value, 0);
total.toFixed(2);
