const people = [
  { name: 'Ana', born: 1990 },
  { name: 'Ben', born: 1985 },
  { name: 'Cai', born: 2001 },
];
people.map(p => ({ ...p, ageIn2024: 2024 - p.born })).sort((a, b) => a.ageIn2024 - b.ageIn2024);
