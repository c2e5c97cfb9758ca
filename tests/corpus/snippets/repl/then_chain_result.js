Promise.resolve([5, 10, 15])
  .then(xs => xs.map(x => x * 2))
  .then(xs => xs.reduce((a, b) => a + b, 0));
