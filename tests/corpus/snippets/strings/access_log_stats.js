const re = /^(?<ip>\S+) \S+ \S+ \[(?<time>[^\]]+)\] "(?<method>\w+) (?<path>\S+) [^"]*" (?<status>\d{3}) (?<bytes>\d+|-)/;
const stats = { requests: 0, bytes: 0, byStatus: {}, paths: {} };
for (const line of input.trim().split('\n')) {
  const m = re.exec(line);
  if (!m) continue;
  const { ip, status, bytes, path } = m.groups;
  stats.requests++;
  stats.bytes += bytes === '-' ? 0 : parseInt(bytes, 10);
  stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
  stats.paths[path] = (stats.paths[path] ?? 0) + 1;
}
stats;
