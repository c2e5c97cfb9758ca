const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const dates = ['1969-07-20', '2000-01-01', '2024-02-29', '2038-01-19'];
for (const d of dates) {
  console.log(d, days[new Date(d).getUTCDay()]);
}
new Date('2024-02-29').toLocaleDateString('fr-FR', { weekday: 'long', timeZone: 'UTC' });
