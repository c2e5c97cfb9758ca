const path = require('path');
const full = path.normalize('/a/b/../c/d/e.txt');
const segments = full.split(path.sep).filter(Boolean);
console.log(segments, segments.length);
const depth = segments.length - 1;
({ full, depth, root: path.parse(full).root });
