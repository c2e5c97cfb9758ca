function hasCycle(graph) {
  const WHITE = 0, GRAY = 1, BLACK = 2;
  const color = {};
  Object.keys(graph).forEach(n => (color[n] = WHITE));
  const dfs = (u, stack) => {
    color[u] = GRAY;
    for (const v of graph[u] || []) {
      if (color[v] === GRAY) return [...stack, u, v];
      if (color[v] === WHITE) {
        const found = dfs(v, [...stack, u]);
        if (found) return found;
      }
    }
    color[u] = BLACK;
    return null;
  };
  for (const n of Object.keys(graph)) if (color[n] === WHITE) { const c = dfs(n, []); if (c) return c; }
  return null;
}
console.log(hasCycle({ a: ['b'], b: ['c'], c: [] }));
hasCycle({ a: ['b'], b: ['c'], c: ['d'], d: ['b'] });
