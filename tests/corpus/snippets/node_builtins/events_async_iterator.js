const { EventEmitter, on } = require('events');
const ticker = new EventEmitter();
setTimeout(() => { ticker.emit('tick', 1); ticker.emit('tick', 2); ticker.emit('tick', 3); }, 5);
const got = [];
for await (const [n] of on(ticker, 'tick')) {
  got.push(n);
  if (n === 3) break;
}
console.log(got, ticker.listenerCount('tick'));
got;
