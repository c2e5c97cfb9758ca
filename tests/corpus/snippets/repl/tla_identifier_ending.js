const wait = ms => new Promise(r => setTimeout(r, ms));
let ticks = 0;
while (ticks < 3) {
  await wait(1);
  ticks++;
}
ticks
