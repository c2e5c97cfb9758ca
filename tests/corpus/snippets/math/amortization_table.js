const principal = 20000, annualRate = 0.05, months = 12;
const r = annualRate / 12;
const payment = Math.round((principal * r / (1 - Math.pow(1 + r, -months))) * 100) / 100;

let balance = principal;
const schedule = [];
for (let m = 1; m <= months; m++) {
  const interest = Math.round(balance * r * 100) / 100;
  let principalPart = Math.round((payment - interest) * 100) / 100;
  if (m === months) principalPart = balance; // last payment clears rounding drift
  balance = Math.round((balance - principalPart) * 100) / 100;
  schedule.push({ month: m, payment: +(principalPart + interest).toFixed(2), interest, principal: principalPart, balance });
}
schedule.slice(0, 3).concat(schedule.slice(-2)).forEach(row => console.log(row));
const totalInterest = schedule.reduce((s, row) => s + row.interest, 0);
totalInterest.toFixed(2);
