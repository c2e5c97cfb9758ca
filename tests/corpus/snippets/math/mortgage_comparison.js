function monthlyPayment(principal, annualRatePct, years) {
  const r = annualRatePct / 100 / 12;
  const n = years * 12;
  return (principal * r) / (1 - (1 + r) ** -n);
}

const principal = 400000;
const options = [
  { term: 15, rate: 5.875 },
  { term: 30, rate: 6.5 },
];
const comparison = options.map(({ term, rate }) => {
  const pmt = monthlyPayment(principal, rate, term);
  return {
    term,
    rate,
    payment: pmt.toFixed(2),
    totalInterest: (pmt * term * 12 - principal).toFixed(2),
  };
});
comparison
