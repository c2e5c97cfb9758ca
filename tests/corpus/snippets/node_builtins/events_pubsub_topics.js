const EventEmitter = require('events');
class PubSub extends EventEmitter {
  publish(topic, payload) { return this.emit(topic, { topic, payload, at: 0 }); }
  subscribe(topic, fn) { this.on(topic, fn); return () => this.off(topic, fn); }
}
const ps = new PubSub();
const inbox = [];
const unsubscribe = ps.subscribe('news', (m) => inbox.push(m.payload));
console.log(ps.publish('news', 'hello'), ps.publish('sports', 'goal'));
unsubscribe();
console.log(ps.publish('news', 'again'));
inbox;
