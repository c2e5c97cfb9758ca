const util = require('util');
class Money {
  constructor(cents, currency) { this.cents = cents; this.currency = currency; }
  [util.inspect.custom]() { return `Money<${(this.cents / 100).toFixed(2)} ${this.currency}>`; }
}
const wallet = { cash: new Money(1250, 'USD'), savings: new Money(99, 'EUR') };
console.log(wallet);
util.inspect(new Money(5, 'GBP'));
