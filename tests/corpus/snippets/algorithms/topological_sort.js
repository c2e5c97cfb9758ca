const deps = {
  app: ['router', 'store', 'ui'],
  router: ['utils'],
  store: ['utils', 'api'],
  ui: ['utils'],
  api: ['http'],
  http: [],
  utils: [],
};
function topoSort(deps) {
  const visited = new Set(), temp = new Set(), order = [];
  function visit(n) {
    if (temp.has(n)) throw new Error(`cycle at ${n}`);
    if (visited.has(n)) return;
    temp.add(n);
    deps[n].forEach(visit);
    temp.delete(n);
    visited.add(n);
    order.push(n);
  }
  Object.keys(deps).forEach(visit);
  return order;
}
topoSort(deps);
