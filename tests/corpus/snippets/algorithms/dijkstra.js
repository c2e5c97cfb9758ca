const graph = {
  A: { B: 4, C: 2 },
  B: { C: 5, D: 10 },
  C: { E: 3 },
  D: { F: 11 },
  E: { D: 4 },
  F: {},
};
function dijkstra(graph, source) {
  const dist = {}, prev = {};
  const visited = new Set();
  for (const node in graph) dist[node] = Infinity;
  dist[source] = 0;
  while (visited.size < Object.keys(graph).length) {
    const u = Object.keys(dist).filter(n => !visited.has(n)).reduce((a, b) => (dist[a] < dist[b] ? a : b));
    visited.add(u);
    for (const [v, w] of Object.entries(graph[u])) {
      if (dist[u] + w < dist[v]) { dist[v] = dist[u] + w; prev[v] = u; }
    }
  }
  return { dist, prev };
}
const { dist, prev } = dijkstra(graph, 'A');
const path = ['F'];
while (prev[path[0]]) path.unshift(prev[path[0]]);
console.log(dist);
path.join(' -> ');
