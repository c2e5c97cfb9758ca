const { default: Decimal } = await import('decimal.js');
const total = ['0.1', '0.2', '19.99'].reduce((sum, x) => sum.plus(x), new Decimal(0));
console.log(total.toString(), new Decimal(1).div(3).toSignificantDigits(10).toString());
console.log(Decimal.name, typeof (await import('decimal.js')).Decimal);
