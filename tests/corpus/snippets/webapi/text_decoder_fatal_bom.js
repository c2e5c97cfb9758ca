const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
const invalid = new Uint8Array([0x61, 0xff, 0x62]);
const results = {
  stripped: new TextDecoder().decode(withBom),
  kept: new TextDecoder('utf-8', { ignoreBOM: true }).decode(withBom).length,
  replaced: new TextDecoder().decode(invalid),
  encoding: new TextDecoder().encoding,
};
try {
  new TextDecoder('utf-8', { fatal: true }).decode(invalid);
  results.fatal = 'no error';
} catch (e) {
  results.fatal = e instanceof TypeError;
}
results;
