type Shape =
  | { kind: 'circle'; radius: number }
  | { kind: 'rect'; width: number; height: number }
  | { kind: 'triangle'; base: number; height: number };

function area(s: Shape): number {
  switch (s.kind) {
    case 'circle': return Math.PI * s.radius ** 2;
    case 'rect': return s.width * s.height;
    case 'triangle': return (s.base * s.height) / 2;
  }
}

const shapes: Shape[] = [
  { kind: 'circle', radius: 2 },
  { kind: 'rect', width: 3, height: 4 },
  { kind: 'triangle', base: 10, height: 5 },
];
shapes.map(s => `${s.kind}: ${area(s).toFixed(2)}`);
