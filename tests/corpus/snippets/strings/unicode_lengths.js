const samples = ['hello', 'café', '👍🏽', '👨‍👩‍👧‍👦', 'नमस्ते'];
const seg = new Intl.Segmenter('en', { granularity: 'grapheme' });
samples.map(s => ({
  s,
  utf16: s.length,
  codePoints: [...s].length,
  graphemes: [...seg.segment(s)].length,
}));
