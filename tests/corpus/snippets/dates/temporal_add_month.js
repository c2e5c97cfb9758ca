const start = Temporal.PlainDate.from('2024-01-31');
const next = start.add({ months: 1 });
const nextYear = Temporal.PlainDate.from('2024-02-29').add({ years: 1 });
console.log(next.toString(), next.dayOfWeek, next.daysInMonth);
[next.toString(), nextYear.toString()];
