let evens = 0, odds = 0;
for (let i = 1; i <= 25; i++) {
  if (i % 2 === 0) evens += i;
  else odds += i;
}
{ evens, odds, diff: odds - evens }
