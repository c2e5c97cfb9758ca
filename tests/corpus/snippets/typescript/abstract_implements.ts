interface HasArea {
  area(): number;
}

abstract class Shape implements HasArea {
  abstract readonly name: string;
  abstract area(): number;
  describe(): string {
    return `${this.name} with area ${this.area().toFixed(3)}`;
  }
}

class Circle extends Shape {
  readonly name = 'circle';
  private readonly r: number;
  constructor(r: number) { super(); this.r = r; }
  area(): number { return Math.PI * this.r ** 2; }
}

class Square extends Shape implements HasArea {
  readonly name: string = 'square';
  private side: number;
  constructor(side: number) { super(); this.side = side; }
  override area(): number { return this.side ** 2; }
}

const shapes: Shape[] = [new Circle(1.5), new Square(2)];
shapes.map(s => s.describe());
