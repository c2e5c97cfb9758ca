const { readFile } = await import('node:fs/promises');
const raw = await readFile('input.json', 'utf8');
JSON.parse(raw);
