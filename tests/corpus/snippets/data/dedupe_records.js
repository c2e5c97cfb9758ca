// Keep the most recent record per email
const latest = new Map();
for (const rec of input.users) {
  const key = rec.email.trim().toLowerCase();
  const prev = latest.get(key);
  if (!prev || new Date(rec.updated) > new Date(prev.updated)) latest.set(key, rec);
}
const unique = [...latest.values()].sort((a, b) => a.id - b.id);
console.log(`Removed ${input.users.length - unique.length} duplicates`);
unique.map(u => u.id);
