const instant = new Date('2024-12-31T23:30:00Z');
function partsIn(tz) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false,
  }).formatToParts(instant);
  return Object.fromEntries(parts.filter(p => p.type !== 'literal').map(p => [p.type, p.value]));
}
({ utc: partsIn('UTC'), auckland: partsIn('Pacific/Auckland'), honolulu: partsIn('Pacific/Honolulu') })
