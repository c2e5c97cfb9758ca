const url = require('url');
const querystring = require('querystring');
const link = 'https://example.com/redirect?to=%2Fdashboard%3Ftab%3D2&utm_source=email';
const { query } = url.parse(link);
const params = querystring.parse(query);
console.log(params);
const inner = url.parse(params.to, true);
[inner.pathname, inner.query.tab, params.utm_source];
