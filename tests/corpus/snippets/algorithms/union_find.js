class UnionFind {
  constructor(n) { this.parent = Array.from({ length: n }, (_, i) => i); this.rank = Array(n).fill(0); }
  find(x) { return this.parent[x] === x ? x : (this.parent[x] = this.find(this.parent[x])); }
  union(a, b) {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra === rb) return false;
    if (this.rank[ra] < this.rank[rb]) this.parent[ra] = rb;
    else if (this.rank[ra] > this.rank[rb]) this.parent[rb] = ra;
    else { this.parent[rb] = ra; this.rank[ra]++; }
    return true;
  }
}
const edges = [[0, 1], [1, 2], [3, 4], [5, 6], [6, 7], [7, 5], [8, 8]];
const uf = new UnionFind(10);
edges.forEach(([a, b]) => uf.union(a, b));
const components = {};
for (let i = 0; i < 10; i++) (components[uf.find(i)] ??= []).push(i);
Object.values(components).sort((a, b) => b.length - a.length);
