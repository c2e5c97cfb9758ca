let total!: number;
let label: string | undefined;

function init(): void {
  total = [4, 8, 15, 16, 23, 42].reduce((a, b) => a + b);
  label = 'lost';
}
init();

class Lazy {
  value!: number;
  private cache?: Map<string, number>;
  compute(): number {
    this.cache ??= new Map();
    this.value = total * 2;
    this.cache.set('double', this.value);
    return this.cache.get('double')!;
  }
}
`${label}: ${new Lazy().compute()}`;
