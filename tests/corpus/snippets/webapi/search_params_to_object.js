const url = new URL('https://example.com/report?from=2024-01-01&to=2024-03-31&group=week&metric=revenue&metric=orders');
const single = Object.fromEntries(url.searchParams);
const multi = {};
for (const [k, v] of url.searchParams) (multi[k] ??= []).push(v);
console.log(single);
multi;
