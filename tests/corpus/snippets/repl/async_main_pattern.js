async function main() {
  const data = [3, 1, 4, 1, 5, 9, 2, 6];
  await new Promise(r => setTimeout(r, 5));
  const max = Math.max(...data);
  console.log('max computed');
  return { max, min: Math.min(...data) };
}

main();
