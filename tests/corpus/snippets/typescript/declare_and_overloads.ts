declare const input: { values: number[] } | undefined;

function parse(value: string): number;
function parse(value: string[]): number[];
function parse(value: string | string[]): number | number[] {
  return Array.isArray(value) ? value.map(Number) : Number(value);
}

const one = parse('42');
const many = parse(['1', '2.5', '-3']);
({ one, many, sum: many.reduce((a, b) => a + b, 0), hasInput: input !== undefined });
