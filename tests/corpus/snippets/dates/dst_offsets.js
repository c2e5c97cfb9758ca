function offsetMinutes(date, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(date);
  const get = type => Number(parts.find(p => p.type === type).value);
  const asUTC = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return (asUTC - date.getTime()) / 60000;
}
const dates = ['2024-01-15T12:00:00Z', '2024-03-10T06:59:00Z', '2024-03-10T07:00:00Z', '2024-07-01T12:00:00Z', '2024-11-03T06:00:00Z'];
dates.map(d => ({ d, ny: offsetMinutes(new Date(d), 'America/New_York'), london: offsetMinutes(new Date(d), 'Europe/London') }));
