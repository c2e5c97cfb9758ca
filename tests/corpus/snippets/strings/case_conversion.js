const toSnake = s => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-\s]+/g, '_').toLowerCase();
const toCamel = s => s.toLowerCase().replace(/[-_\s]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ''));
const toKebab = s => toSnake(s).replace(/_/g, '-');
const toTitle = s => s.replace(/\w\S*/g, w => w[0].toUpperCase() + w.slice(1).toLowerCase());

const inputs = ['userAccountId', 'HTTPServerError', 'first_name', 'the quick brown fox'];
inputs.map(s => ({ s, snake: toSnake(s), camel: toCamel(toSnake(s)), kebab: toKebab(s), title: toTitle(s) }));
