const summary = { region: 'EMEA', quarters: [120.5, 98.25, 143], active: true };
summary.total = summary.quarters.reduce((a, b) => a + b);
JSON.stringify(summary, null, 2)
