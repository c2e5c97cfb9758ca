const _ = require('lodash');
const grouped = _.groupBy([6.1, 4.2, 6.3], Math.floor);
grouped;
