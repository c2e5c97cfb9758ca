interface Employee {
  id: number;
  name: string;
  department: string;
  salary: number;
}

const employees: Employee[] = [
  { id: 1, name: 'Alice', department: 'Engineering', salary: 120000 },
  { id: 2, name: 'Bob', department: 'Marketing', salary: 85000 },
  { id: 3, name: 'Carol', department: 'Engineering', salary: 135000 },
  { id: 4, name: 'Dan', department: 'Sales', salary: 70000 },
];

function averageByDept(list: Employee[]): Record<string, number> {
  const sums: Record<string, { total: number; count: number }> = {};
  for (const e of list) {
    sums[e.department] ??= { total: 0, count: 0 };
    sums[e.department].total += e.salary;
    sums[e.department].count += 1;
  }
  return Object.fromEntries(Object.entries(sums).map(([d, s]) => [d, s.total / s.count]));
}

averageByDept(employees);
