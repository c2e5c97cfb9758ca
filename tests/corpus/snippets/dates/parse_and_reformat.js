const inputs = ['03/15/2024', '12/01/2023', '07/04/1776'];
const reformatted = inputs.map(s => {
  const [mm, dd, yyyy] = s.split('/').map(Number);
  const d = new Date(Date.UTC(yyyy, mm - 1, dd));
  return d.toISOString().slice(0, 10);
});
console.log(reformatted);
new Date('2024-03-15T10:20:30.456Z').getTime();
