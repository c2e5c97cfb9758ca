import Decimal from 'decimal.js';
Decimal.set({ precision: 30 });
console.log(new Decimal(2).sqrt().toString(), new Decimal('1e-7').toFixed(), Decimal.precision);
