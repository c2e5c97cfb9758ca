const before = Temporal.ZonedDateTime.from('2024-03-10T01:30:00[America/New_York]');
const after = before.add({ hours: 1 });
console.log(before.offset, '->', after.offset);
const hours = before.until(before.add({ days: 1 }), { largestUnit: 'hours' }).hours;
({ after: after.toString(), hoursInDay: hours });
