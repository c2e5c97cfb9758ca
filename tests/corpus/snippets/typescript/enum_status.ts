enum Status {
  Active = 'ACTIVE',
  Inactive = 'INACTIVE',
  Pending = 'PENDING',
}

enum Priority { Low, Medium, High }

const tasks = [
  { title: 'Write report', status: Status.Active, priority: Priority.High },
  { title: 'Review PR', status: Status.Pending, priority: Priority.Medium },
  { title: 'Old ticket', status: Status.Inactive, priority: Priority.Low },
];
console.log(Priority[Priority.High]);
tasks.filter(t => t.status !== Status.Inactive).map(t => `${t.title} (${Priority[t.priority]})`);
