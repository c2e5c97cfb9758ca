const squares = [];
for (let i = 1; i <= 150; i++) {
  squares.push(i * i);
}
squares
