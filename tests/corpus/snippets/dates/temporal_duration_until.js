const from = Temporal.PlainDate.from('2024-01-15');
const to = Temporal.PlainDate.from('2024-12-25');
const diff = from.until(to, { largestUnit: 'months' });
const days = from.until(to).days;
console.log(`${diff.months} months and ${diff.days} days`);
({ iso: diff.toString(), days });
