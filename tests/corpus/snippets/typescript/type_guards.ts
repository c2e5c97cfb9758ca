type Payload = string | number | { value: number } | null;

function isBoxed(p: Payload): p is { value: number } {
  return typeof p === 'object' && p !== null && 'value' in p;
}

function toNumber(p: Payload): number {
  if (p === null) return 0;
  if (typeof p === 'string') return parseFloat(p) || 0;
  if (isBoxed(p)) return p.value;
  return p;
}

const data: Payload[] = ['3.5', 2, { value: 10 }, null, 'abc'];
data.map(toNumber).reduce((a, b) => a + b, 0);
