const today = new Date('2024-09-18');
const events = { 'Halloween': '2024-10-31', 'Christmas': '2024-12-25', 'New Year': '2025-01-01' };
const msPerDay = 1000 * 60 * 60 * 24;
const result = {};
for (const [name, dateStr] of Object.entries(events)) {
  result[name] = Math.ceil((new Date(dateStr) - today) / msPerDay);
}
result
