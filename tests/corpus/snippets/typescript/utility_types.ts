interface User {
  id: number;
  name: string;
  email: string;
  role: 'admin' | 'user';
}

type UserPreview = Pick<User, 'id' | 'name'>;
type UserUpdate = Partial<Omit<User, 'id'>>;
type RoleCount = Record<User['role'], number>;
type Keys = keyof User;

const users: User[] = [
  { id: 1, name: 'Ana', email: 'ana@x.io', role: 'admin' },
  { id: 2, name: 'Ben', email: 'ben@x.io', role: 'user' },
  { id: 3, name: 'Cy', email: 'cy@x.io', role: 'user' },
];
const update: UserUpdate = { email: 'ben@new.io' };
const patched: User[] = users.map(u => (u.id === 2 ? { ...u, ...update } : u));
const counts: RoleCount = { admin: 0, user: 0 };
patched.forEach(u => counts[u.role]++);
const previews: UserPreview[] = patched.map(({ id, name }) => ({ id, name }));
const keys: Keys[] = ['id', 'email'];
({ counts, previews, emails: patched.map(u => u[keys[1]]) });
