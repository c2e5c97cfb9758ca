import _ from 'lodash';

_.chunk([1, 2, 3, 4, 5], 2);
