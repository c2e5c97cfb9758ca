let balance = input.opening;
const ledger = input.transactions.map(t => {
  balance += t.type === 'credit' ? t.amount : -t.amount;
  balance = Math.round(balance * 100) / 100;
  return `${t.date}  ${t.type.padEnd(6)} ${t.amount.toFixed(2).padStart(9)}  ${balance.toFixed(2).padStart(10)}`;
});
console.log(ledger.join('\n'));
balance;
