const date = new Date('2024-07-04T15:30:00Z');
const fmt = new Intl.DateTimeFormat('en-US', {
  weekday: 'long', year: 'numeric', month: 'long', day: 'numeric',
  hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short',
});
console.log(fmt.format(date));
console.log(date.toLocaleDateString('en-GB'));
console.log(date.toLocaleDateString('de-DE', { dateStyle: 'full' }));
date.toISOString();
