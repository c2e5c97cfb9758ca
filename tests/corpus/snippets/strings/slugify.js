function slugify(str) {
  return str
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/[^a-z0-9\s-]/g, '')
    .replace(/[\s_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
const titles = ['Hello, World!', '  Crème Brûlée Recipe (Easy) ', 'Top 10 Tips & Tricks -- 2024', 'Ünïcödé   çhàrs'];
titles.map(slugify);
