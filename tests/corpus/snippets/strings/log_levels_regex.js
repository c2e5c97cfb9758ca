const logRegex = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) \[(\w+)\] (.*)$/;
const counts = {};
const errors = [];
for (const line of input.log.split('\n')) {
  const m = line.match(logRegex);
  if (!m) continue;
  const [, date, time, level, msg] = m;
  counts[level] = (counts[level] || 0) + 1;
  if (level === 'ERROR') errors.push(`${time} ${msg}`);
}
console.log(counts);
errors;
