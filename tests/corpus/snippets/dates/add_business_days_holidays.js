const holidays = new Set(['2024-12-25', '2024-12-26', '2025-01-01']);
function addBusinessDays(dateStr, days) {
  const d = new Date(`${dateStr}T12:00:00Z`);
  let added = 0;
  while (added < days) {
    d.setUTCDate(d.getUTCDate() + 1);
    const iso = d.toISOString().slice(0, 10);
    const dow = d.getUTCDay();
    if (dow === 0 || dow === 6 || holidays.has(iso)) continue;
    added++;
  }
  return d.toISOString().split('T')[0];
}
console.log(addBusinessDays('2024-12-20', 1));
addBusinessDays('2024-12-20', 10);
