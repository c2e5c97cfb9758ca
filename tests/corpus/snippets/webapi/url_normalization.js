const urls = [
  'HTTP://EXAMPLE.COM:80/a/./b/../c',
  'https://example.com/path with spaces/ü?q=ä ö#frag ment',
  'https://münchen.de/straße',
  'http://[::1]:3000/x',
  'http://192.168.0.1.:8080/',
  'http://0x7f.1/',
];
urls.map(u => new URL(u).href);
