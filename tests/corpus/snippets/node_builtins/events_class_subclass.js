const { EventEmitter } = require('node:events');
class OrderQueue extends EventEmitter {
  constructor() { super(); this.orders = []; }
  add(order) {
    this.orders.push(order);
    this.emit('added', order, this.orders.length);
    if (this.orders.length >= 3) this.emit('full');
  }
}
const queue = new OrderQueue();
const events = [];
queue.on('added', (order, size) => events.push(`${order.id}@${size}`));
queue.on('full', () => events.push('FULL'));
for (const id of ['a', 'b', 'c']) queue.add({ id });
console.log(events);
events;
