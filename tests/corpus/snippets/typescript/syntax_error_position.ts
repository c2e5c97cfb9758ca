type Rate = { currency: string; value: number };
const rates: Rate[] = [{ currency: 'EUR', value: 0.92 }];
const total: number = rates.reduce((sum: number, r: Rate) => sum + r.value, 0;
total;
