import _ from 'lodash';
const rows = [{ n: 3, tag: 'x' }, { n: 1, tag: 'y' }, { n: 2, tag: 'x' }];
console.log(_.orderBy(rows, ['n'], ['desc']).map((r) => r.n));
console.log(_.mapValues(_.keyBy(rows, 'n'), 'tag'));
console.log(_.isEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), _.cloneDeep(new Map([[1, { x: 1 }]])));
