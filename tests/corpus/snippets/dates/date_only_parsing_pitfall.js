const dateOnly = new Date('2024-03-15');           // parsed as UTC midnight
const dateTime = new Date('2024-03-15T00:00:00');  // parsed as local time
console.log(dateOnly.toISOString());
console.log(dateTime.toISOString());
console.log(dateOnly.getTimezoneOffset());
[dateOnly.getDay(), dateOnly.getUTCDay(), dateOnly.toDateString()];
