const dayjs = require('dayjs');
dayjs.extend(require('dayjs/plugin/utc'));
dayjs.extend(require('dayjs/plugin/relativeTime'));
console.log(dayjs.utc('2024-05-01T00:00:00Z').format(), dayjs('2024-01-01').from(dayjs('2024-03-01')));
