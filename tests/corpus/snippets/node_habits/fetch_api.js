const res = await fetch('https://api.exchangerate.host/latest?base=USD');
const json = await res.json();
json.rates.EUR * 100;
