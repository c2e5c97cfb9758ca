import type { Config } from './config';

type Row = { name: string; score: number };

const rows: Row[] = [
  { name: 'a', score: 3 },
  { name: 'b', score: 9 },
];
const best: Row = rows.reduce((x, y) => (y.score > x.score ? y : x));
best.name;
