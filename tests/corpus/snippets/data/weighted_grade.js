const weights = { homework: 0.2, midterm: 0.3, final: 0.5 };
const results = input.students.map(s => {
  const score = Object.entries(weights).reduce((sum, [k, w]) => sum + s[k] * w, 0);
  const grade = score >= 90 ? 'A' : score >= 80 ? 'B' : score >= 70 ? 'C' : score >= 60 ? 'D' : 'F';
  return { name: s.name, score: Math.round(score * 10) / 10, grade };
});
results.forEach(r => console.log(`${r.name.padEnd(8)}${r.score.toFixed(1).padStart(6)}  ${r.grade}`));
results.filter(r => r.grade === 'A').map(r => r.name);
