const meeting = new Date('2024-11-05T17:00:00Z');
const zones = ['America/Los_Angeles', 'America/New_York', 'Europe/London', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Tokyo', 'Australia/Sydney'];
const table = zones.map(tz => {
  const local = meeting.toLocaleString('en-US', {
    timeZone: tz, weekday: 'short', hour: 'numeric', minute: '2-digit', hour12: true,
  });
  return `${tz.padEnd(20)} ${local}`;
});
console.log(table.join('\n'));
