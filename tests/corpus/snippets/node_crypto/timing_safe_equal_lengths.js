const { timingSafeEqual } = require('crypto');

const expected = Buffer.from('a1b2c3d4', 'hex');
for (const candidate of ['a1b2c3d4', 'a1b2c3d5', 'a1b2c3']) {
  try {
    console.log(candidate, timingSafeEqual(expected, Buffer.from(candidate, 'hex')));
  } catch (err) {
    console.log(candidate, err.code, err.message);
  }
}
