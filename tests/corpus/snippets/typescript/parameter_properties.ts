class Point {
  constructor(public x: number, public y: number) {}
  distanceTo(other: Point): number {
    return Math.hypot(this.x - other.x, this.y - other.y);
  }
}
const a = new Point(0, 0);
const b = new Point(3, 4);
console.log(b);
a.distanceTo(b);
