interface Options {
  precision?: number;
  prefix?: string;
  readonly suffix?: string;
}

function formatNumber(n: number, opts: Options = {}, locale?: string): string {
  const { precision = 2, prefix = '', suffix = '' } = opts;
  const body = locale ? n.toLocaleString(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision }) : n.toFixed(precision);
  return `${prefix}${body}${suffix}`;
}

[
  formatNumber(1234.5678),
  formatNumber(1234.5678, { precision: 0, suffix: ' units' }),
  formatNumber(1234.5678, { prefix: '$' }, 'en-US'),
  formatNumber(0.5, { precision: 1, suffix: '%' }, 'de-DE'),
];
