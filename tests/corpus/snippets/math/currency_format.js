const amount = 1234567.891;
const formats = {
  usd: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount),
  eur: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(amount),
  jpy: new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(amount),
  inr: new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 }).format(amount),
  compact: new Intl.NumberFormat('en', { notation: 'compact' }).format(amount),
  percent: new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1 }).format(0.0734),
};
formats
