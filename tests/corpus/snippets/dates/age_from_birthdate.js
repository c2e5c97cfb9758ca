function getAge(birth, asOf) {
  const b = new Date(birth), now = new Date(asOf);
  let age = now.getFullYear() - b.getFullYear();
  const m = now.getMonth() - b.getMonth();
  if (m < 0 || (m === 0 && now.getDate() < b.getDate())) age--;
  return age;
}
const people = [['Ana', '1990-02-28'], ['Raj', '2000-02-29'], ['Lou', '1985-12-31']];
people.map(([name, dob]) => `${name}: ${getAge(dob, '2024-02-28')}`);
