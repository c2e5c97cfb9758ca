interface Rate { from: string; to: string; rate: number }

async function getRates(): Promise<Rate[]> {
  return [
    { from: 'USD', to: 'EUR', rate: 0.92 },
    { from: 'USD', to: 'GBP', rate: 0.79 },
  ];
}

async function convert(amount: number, to: string): Promise<string> {
  const rates: Rate[] = await getRates();
  const r = rates.find((x: Rate) => x.to === to);
  if (!r) throw new Error(`no rate for ${to}`);
  return (amount * r.rate).toFixed(2);
}

const results: string[] = await Promise.all([convert(100, 'EUR'), convert(250, 'GBP')]);
results;
