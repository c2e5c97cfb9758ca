const config = `
# database settings
host = db.internal
port=5432
user = "admin"
timeout = 30s
debug = true
`;
const parsed = {};
for (const raw of config.split('\n')) {
  const line = raw.trim();
  if (!line || line.startsWith('#')) continue;
  const [key, ...rest] = line.split('=');
  let value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
  if (/^\d+$/.test(value)) value = Number(value);
  else if (value === 'true' || value === 'false') value = value === 'true';
  parsed[key.trim()] = value;
}
parsed;
