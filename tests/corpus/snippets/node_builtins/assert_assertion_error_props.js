const { AssertionError } = require('assert');
const err = new AssertionError({ actual: 5, expected: 10, operator: 'strictEqual' });
console.log(err.message);
console.log(err instanceof Error, err.name, err.code, err.generatedMessage);
({ actual: err.actual, expected: err.expected, operator: err.operator });
