const { format, eachDayOfInterval, isWeekend } = require('date-fns');
const days = eachDayOfInterval({ start: new Date(2024, 5, 1), end: new Date(2024, 5, 9) });
console.log(days.filter(isWeekend).map((d) => format(d, 'MMM d')));
