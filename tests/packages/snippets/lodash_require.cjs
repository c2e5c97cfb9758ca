const _ = require('lodash');
const orders = [{ customer: 'a', total: 10 }, { customer: 'b', total: 5 }, { customer: 'a', total: 7 }];
console.log(_.chunk([1, 2, 3, 4, 5], 2));
console.log(_.groupBy(orders, 'customer'));
console.log(_.sumBy(orders, 'total'), _.uniq([3, 1, 3, 2]), _.camelCase('Hello big world'));
console.log(_.VERSION, typeof _.debounce);
