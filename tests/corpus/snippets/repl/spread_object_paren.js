const defaults = { precision: 2, currency: 'USD', locale: 'en-US' };
const overrides = { currency: 'EUR' };
const config = { ...defaults, ...overrides };
({ ...config, formatted: new Intl.NumberFormat(config.locale, { style: 'currency', currency: config.currency }).format(1234.5) })
