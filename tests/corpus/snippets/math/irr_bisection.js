const cashflows = [-10000, 3000, 4200, 6800];

const npv = (rate) => cashflows.reduce((acc, cf, t) => acc + cf / Math.pow(1 + rate, t), 0);

let lo = -0.99, hi = 1.0;
for (let i = 0; i < 200; i++) {
  const mid = (lo + hi) / 2;
  if (npv(mid) > 0) lo = mid; else hi = mid;
}
const irr = (lo + hi) / 2;
console.log('NPV @ 10%:', npv(0.10).toFixed(2));
`IRR = ${(irr * 100).toFixed(4)}%`;
