const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const now = new Date('2024-05-10T12:00:00Z');
function timeAgo(date) {
  const diffSec = Math.round((date - now) / 1000);
  const units = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];
  for (const [unit, secs] of units) {
    if (Math.abs(diffSec) >= secs || unit === 'second') return rtf.format(Math.round(diffSec / secs), unit);
  }
}
['2024-05-10T11:59:30Z', '2024-05-10T09:00:00Z', '2024-05-09T12:00:00Z', '2024-04-01T00:00:00Z', '2024-05-17T12:00:00Z', '2022-01-01T00:00:00Z']
  .map(s => timeAgo(new Date(s)));
