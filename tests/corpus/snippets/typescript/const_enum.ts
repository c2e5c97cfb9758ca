const enum Direction {
  Up = 1,
  Down,
  Left,
  Right,
}
const moves: Direction[] = [Direction.Up, Direction.Right, Direction.Right, Direction.Down];
moves.reduce((sum, d) => sum + d, 0);
