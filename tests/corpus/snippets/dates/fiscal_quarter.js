// Fiscal year starts in October
function fiscalInfo(dateStr) {
  const d = new Date(dateStr);
  const month = d.getUTCMonth(); // 0-11
  const fy = month >= 9 ? d.getUTCFullYear() + 1 : d.getUTCFullYear();
  const fiscalMonth = (month + 3) % 12;
  const quarter = Math.floor(fiscalMonth / 3) + 1;
  return `FY${fy} Q${quarter}`;
}
const dates = ['2024-10-01', '2024-12-31', '2025-01-15', '2025-06-30', '2025-09-30'];
Object.fromEntries(dates.map(d => [d, fiscalInfo(d)]));
