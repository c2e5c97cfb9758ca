function formatDuration(totalSeconds) {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return [h, m, s].map(v => String(v).padStart(2, '0')).join(':');
}
const laps = [754, 3599, 3600, 86399, 90061];
laps.forEach(l => console.log(l, formatDuration(l)));
formatDuration(laps.reduce((a, b) => a + b, 0));
