import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const text = readFileSync(join(process.cwd(), 'notes.txt'), 'utf8');
text.split(/\s+/).length;
