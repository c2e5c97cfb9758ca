const COLORS = ['red', 'green', 'blue'] as const;
type Color = (typeof COLORS)[number];

type RGB = readonly [r: number, g: number, b: number];
const palette: Record<Color, RGB> = {
  red: [255, 0, 0],
  green: [0, 128, 0],
  blue: [0, 0, 255],
};

function toHex([r, g, b]: RGB): string {
  return '#' + [r, g, b].map(c => c.toString(16).padStart(2, '0')).join('');
}

COLORS.map((c: Color) => `${c}=${toHex(palette[c])}`);
