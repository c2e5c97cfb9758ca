import * as fns from 'date-fns';
import _ from 'lodash';
const { chunk } = _;
import { createHash } from 'node:crypto';
console.log(typeof fns.format, Object.keys(fns).length > 200, fns.default === undefined);
console.log(chunk === _.chunk, createHash('sha256').update('x').digest('hex').slice(0, 8));
