import { format, addDays, differenceInCalendarDays, parseISO, formatDistanceStrict } from 'date-fns';
const start = parseISO('2024-02-27');
console.log(format(addDays(start, 3), 'yyyy-MM-dd EEEE'));
console.log(differenceInCalendarDays(parseISO('2025-01-01'), start));
console.log(formatDistanceStrict(parseISO('2024-01-01'), parseISO('2024-03-15')));
