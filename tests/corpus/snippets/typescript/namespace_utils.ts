namespace Geometry {
  export const TAU = Math.PI * 2;
  export function circumference(r: number): number {
    return TAU * r;
  }
}

Geometry.circumference(10).toFixed(4);
