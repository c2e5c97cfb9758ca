import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import timezone from 'dayjs/plugin/timezone.js';
dayjs.extend(utc);
dayjs.extend(timezone);
console.log(dayjs.utc('2024-03-10T12:00:00Z').tz('America/New_York').format('YYYY-MM-DD HH:mm Z'));
console.log(dayjs('2024-01-31').add(1, 'month').format('YYYY-MM-DD'));
