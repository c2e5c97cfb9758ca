async function fetchCount() {
  return new Promise(resolve => setTimeout(() => resolve(5), 10));
}
const r = await fetchCount();
if (r > 2) { console.log('big'); }
({ r })
