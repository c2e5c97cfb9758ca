// console.table: draws rows of an array, object, Map or Set as a box-drawn text table,
// laid out like Node 20 (left-aligned cells, an "(index)" column, a "Values" column for
// primitive rows). Cells are rendered shallowly, as Node does, and padded by display width.

// Display width, as Node measures cells (its getStringWidth with ICU): after NFC, a code point
// that East Asian Width calls wide or fullwidth (or an emoji shown as one) takes two columns;
// control and format characters, nonspacing and enclosing marks and emoji modifiers take none.
// JavaScript's regular expressions know no East Asian Width, so the two sets are kept here as
// hexadecimal code point ranges, read from Node 20's ICU (Unicode 17).
const WIDE_RANGES_TEXT =
  '1100-115f 231a-231b 2329-232a 23e9-23ec 23f0 23f3 25fd-25fe 2614-2615 2630-2637 2648-2653 267f ' +
  '268a-268f 2693 26a1 26aa-26ab 26bd-26be 26c4-26c5 26ce 26d4 26ea 26f2-26f3 26f5 26fa 26fd 2705 ' +
  '270a-270b 2728 274c 274e 2753-2755 2757 2795-2797 27b0 27bf 2b1b-2b1c 2b50 2b55 2e80-2e99 2e9b-2ef3 ' +
  '2f00-2fd5 2ff0-303e 3041-3096 3099-30ff 3105-312f 3131-318e 3190-31e5 31ef-321e 3220-3247 3250-a48c ' +
  'a490-a4c6 a960-a97c ac00-d7a3 f900-faff fe10-fe19 fe30-fe52 fe54-fe66 fe68-fe6b ff01-ff60 ffe0-ffe6 ' +
  '16fe0-16fe4 16ff0-16ff6 17000-18cd5 18cff-18d1e 18d80-18df2 1aff0-1aff3 1aff5-1affb 1affd-1affe ' +
  '1b000-1b122 1b132 1b150-1b152 1b155 1b164-1b167 1b170-1b2fb 1d300-1d356 1d360-1d376 1f004 1f0cf ' +
  '1f18e 1f191-1f19a 1f1e6-1f202 1f210-1f23b 1f240-1f248 1f250-1f251 1f260-1f265 1f300-1f320 ' +
  '1f32d-1f335 1f337-1f37c 1f37e-1f393 1f3a0-1f3ca 1f3cf-1f3d3 1f3e0-1f3f0 1f3f4 1f3f8-1f43e 1f440 ' +
  '1f442-1f4fc 1f4ff-1f53d 1f54b-1f54e 1f550-1f567 1f57a 1f595-1f596 1f5a4 1f5fb-1f64f 1f680-1f6c5 ' +
  '1f6cc 1f6d0-1f6d2 1f6d5-1f6d8 1f6dc-1f6df 1f6eb-1f6ec 1f6f4-1f6fc 1f7e0-1f7eb 1f7f0 1f90c-1f93a ' +
  '1f93c-1f945 1f947-1f9ff 1fa70-1fa7c 1fa80-1fa8a 1fa8e-1fac6 1fac8 1facd-1fadc 1fadf-1faea ' +
  '1faef-1faf8 20000-2fffd 30000-3fffd';
const ZERO_WIDTH_RANGES_TEXT =
  '0-1f 7f-9f 300-36f 483-489 591-5bd 5bf 5c1-5c2 5c4-5c5 5c7 600-605 610-61a 61c 64b-65f 670 6d6-6dd ' +
  '6df-6e4 6e7-6e8 6ea-6ed 70f 711 730-74a 7a6-7b0 7eb-7f3 7fd 816-819 81b-823 825-827 829-82d 859-85b ' +
  '890-891 897-89f 8ca-902 93a 93c 941-948 94d 951-957 962-963 981 9bc 9c1-9c4 9cd 9e2-9e3 9fe a01-a02 ' +
  'a3c a41-a42 a47-a48 a4b-a4d a51 a70-a71 a75 a81-a82 abc ac1-ac5 ac7-ac8 acd ae2-ae3 afa-aff b01 b3c ' +
  'b3f b41-b44 b4d b55-b56 b62-b63 b82 bc0 bcd c00 c04 c3c c3e-c40 c46-c48 c4a-c4d c55-c56 c62-c63 c81 ' +
  'cbc cbf cc6 ccc-ccd ce2-ce3 d00-d01 d3b-d3c d41-d44 d4d d62-d63 d81 dca dd2-dd4 dd6 e31 e34-e3a ' +
  'e47-e4e eb1 eb4-ebc ec8-ece f18-f19 f35 f37 f39 f71-f7e f80-f84 f86-f87 f8d-f97 f99-fbc fc6 ' +
  '102d-1030 1032-1037 1039-103a 103d-103e 1058-1059 105e-1060 1071-1074 1082 1085-1086 108d 109d ' +
  '135d-135f 1712-1714 1732-1733 1752-1753 1772-1773 17b4-17b5 17b7-17bd 17c6 17c9-17d3 17dd 180b-180f ' +
  '1885-1886 18a9 1920-1922 1927-1928 1932 1939-193b 1a17-1a18 1a1b 1a56 1a58-1a5e 1a60 1a62 1a65-1a6c ' +
  '1a73-1a7c 1a7f 1ab0-1add 1ae0-1aeb 1b00-1b03 1b34 1b36-1b3a 1b3c 1b42 1b6b-1b73 1b80-1b81 1ba2-1ba5 ' +
  '1ba8-1ba9 1bab-1bad 1be6 1be8-1be9 1bed 1bef-1bf1 1c2c-1c33 1c36-1c37 1cd0-1cd2 1cd4-1ce0 1ce2-1ce8 ' +
  '1ced 1cf4 1cf8-1cf9 1dc0-1dff 200b-200f 202a-202e 2060-2064 2066-206f 20d0-20f0 2cef-2cf1 2d7f ' +
  '2de0-2dff a66f-a672 a674-a67d a69e-a69f a6f0-a6f1 a802 a806 a80b a825-a826 a82c a8c4-a8c5 a8e0-a8f1 ' +
  'a8ff a926-a92d a947-a951 a980-a982 a9b3 a9b6-a9b9 a9bc-a9bd a9e5 aa29-aa2e aa31-aa32 aa35-aa36 aa43 ' +
  'aa4c aa7c aab0 aab2-aab4 aab7-aab8 aabe-aabf aac1 aaec-aaed aaf6 abe5 abe8 abed fb1e fe00-fe0f ' +
  'fe20-fe2f feff fff9-fffb 101fd 102e0 10376-1037a 10a01-10a03 10a05-10a06 10a0c-10a0f 10a38-10a3a ' +
  '10a3f 10ae5-10ae6 10d24-10d27 10d69-10d6d 10eab-10eac 10efa-10eff 10f46-10f50 10f82-10f85 11001 ' +
  '11038-11046 11070 11073-11074 1107f-11081 110b3-110b6 110b9-110ba 110bd 110c2 110cd 11100-11102 ' +
  '11127-1112b 1112d-11134 11173 11180-11181 111b6-111be 111c9-111cc 111cf 1122f-11231 11234 ' +
  '11236-11237 1123e 11241 112df 112e3-112ea 11300-11301 1133b-1133c 11340 11366-1136c 11370-11374 ' +
  '113bb-113c0 113ce 113d0 113d2 113e1-113e2 11438-1143f 11442-11444 11446 1145e 114b3-114b8 114ba ' +
  '114bf-114c0 114c2-114c3 115b2-115b5 115bc-115bd 115bf-115c0 115dc-115dd 11633-1163a 1163d ' +
  '1163f-11640 116ab 116ad 116b0-116b5 116b7 1171d 1171f 11722-11725 11727-1172b 1182f-11837 ' +
  '11839-1183a 1193b-1193c 1193e 11943 119d4-119d7 119da-119db 119e0 11a01-11a0a 11a33-11a38 ' +
  '11a3b-11a3e 11a47 11a51-11a56 11a59-11a5b 11a8a-11a96 11a98-11a99 11b60 11b62-11b64 11b66 ' +
  '11c30-11c36 11c38-11c3d 11c3f 11c92-11ca7 11caa-11cb0 11cb2-11cb3 11cb5-11cb6 11d31-11d36 11d3a ' +
  '11d3c-11d3d 11d3f-11d45 11d47 11d90-11d91 11d95 11d97 11ef3-11ef4 11f00-11f01 11f36-11f3a 11f40 ' +
  '11f42 11f5a 13430-13440 13447-13455 1611e-16129 1612d-1612f 16af0-16af4 16b30-16b36 16f4f ' +
  '16f8f-16f92 1bc9d-1bc9e 1bca0-1bca3 1cf00-1cf2d 1cf30-1cf46 1d167-1d169 1d173-1d182 1d185-1d18b ' +
  '1d1aa-1d1ad 1d242-1d244 1da00-1da36 1da3b-1da6c 1da75 1da84 1da9b-1da9f 1daa1-1daaf 1e000-1e006 ' +
  '1e008-1e018 1e01b-1e021 1e023-1e024 1e026-1e02a 1e08f 1e130-1e136 1e2ae 1e2ec-1e2ef 1e4ec-1e4ef ' +
  '1e5ee-1e5ef 1e6e3 1e6e6 1e6ee-1e6ef 1e6f5 1e8d0-1e8d6 1e944-1e94a e0001 e0020-e007f e0100-e01ef';

const StringPrototypeNormalize = uncurryThis(String.prototype.normalize);
const StringPrototypeCodePointAt = uncurryThis(String.prototype.codePointAt);

// The ranges as a flat list [start0, end0, start1, end1, ...], read on first use.
function parseRanges(text) {
  const ranges = list();
  let start = 0;
  while (start < text.length) {
    let end = StringPrototypeIndexOf(text, ' ', start);
    if (end === -1) end = text.length;
    const piece = StringPrototypeSlice(text, start, end);
    const dash = StringPrototypeIndexOf(piece, '-');
    const first = NumberParseInt(dash === -1 ? piece : StringPrototypeSlice(piece, 0, dash), 16);
    ArrayPrototypePush(ranges, first, dash === -1 ? first : NumberParseInt(StringPrototypeSlice(piece, dash + 1), 16));
    start = end + 1;
  }
  return ranges;
}

const widthTables = { __proto__: null, wide: undefined, zero: undefined };

function inRanges(ranges, code) {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (code < ranges[2 * middle]) high = middle - 1;
    else if (code > ranges[2 * middle + 1]) low = middle + 1;
    else return true;
  }
  return false;
}

function displayWidth(text) {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = StringPrototypeCharCodeAt(text, i);
    if (code >= 127) return width + wideTextWidth(StringPrototypeNormalize(StringPrototypeSlice(text, i), 'NFC'));
    if (code >= 32) width++;
  }
  return width;
}

function wideTextWidth(text) {
  if (widthTables.wide === undefined) {
    widthTables.wide = parseRanges(WIDE_RANGES_TEXT);
    widthTables.zero = parseRanges(ZERO_WIDTH_RANGES_TEXT);
  }
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = StringPrototypeCodePointAt(text, i);
    if (code > 0xffff) i++;
    if (code < 32) continue;
    if (code < 127) width++;
    else if (inRanges(widthTables.wide, code)) width += 2;
    else if (!inRanges(widthTables.zero, code)) width++;
  }
  return width;
}

function tableCell(value) {
  let depth = 0;
  if (value !== null && typeof value === 'object' && !ArrayIsArray(value)) {
    try {
      if (ObjectKeys(value).length > 2) depth = -1;
    } catch {
      depth = -1;
    }
  }
  return inspect(value, { __proto__: null, depth, maxArrayLength: 3, breakLength: Infinity });
}

function drawTable(head, columns) {
  const widths = list();
  let rowCount = 0;
  for (let i = 0; i < head.length; i++) {
    ArrayPrototypePush(widths, displayWidth(head[i]));
    if (columns[i].length > rowCount) rowCount = columns[i].length;
  }
  const rows = list();
  for (let j = 0; j < rowCount; j++) {
    const row = list();
    for (let i = 0; i < head.length; i++) {
      const cell = j < columns[i].length && columns[i][j] !== undefined ? columns[i][j] : '';
      ArrayPrototypePush(row, cell);
      const width = displayWidth(cell);
      if (width > widths[i]) widths[i] = width;
    }
    ArrayPrototypePush(rows, row);
  }
  const dividers = list();
  for (let i = 0; i < widths.length; i++) ArrayPrototypePush(dividers, StringPrototypeRepeat('─', widths[i] + 2));
  const renderRow = (row) => {
    const cells = list();
    for (let i = 0; i < row.length; i++) {
      ArrayPrototypePush(cells, ' ' + row[i] + StringPrototypeRepeat(' ', widths[i] - displayWidth(row[i]) + 1));
    }
    return '│' + ArrayPrototypeJoin(cells, '│') + '│';
  };
  const lines = asList([
    '┌' + ArrayPrototypeJoin(dividers, '┬') + '┐',
    renderRow(head),
    '├' + ArrayPrototypeJoin(dividers, '┼') + '┤',
  ]);
  for (let j = 0; j < rows.length; j++) ArrayPrototypePush(lines, renderRow(rows[j]));
  ArrayPrototypePush(lines, '└' + ArrayPrototypeJoin(dividers, '┴') + '┘');
  return ArrayPrototypeJoin(lines, '\n');
}

function indexColumn(length) {
  const column = list();
  for (let i = 0; i < length; i++) ArrayPrototypePush(column, '' + i);
  return column;
}

// The table text, or undefined when the data is not tabular (then it is logged plainly).
function renderTable(data, properties) {
  if (data === null || typeof data !== 'object') return undefined;
  const filter = ArrayIsArray(properties) ? properties : undefined;
  const kind = kindOf(data, prototypeChain(data));
  if (kind === 'map') {
    const keys = list();
    const values = list();
    const iterator = MapPrototypeEntries(data);
    for (;;) {
      const step = MapIteratorPrototypeNext(iterator);
      if (step.done) break;
      ArrayPrototypePush(keys, tableCell(step.value[0]));
      ArrayPrototypePush(values, tableCell(step.value[1]));
    }
    return drawTable(asList(['(iteration index)', 'Key', 'Values']), asList([indexColumn(keys.length), keys, values]));
  }
  if (kind === 'set') {
    const values = list();
    const iterator = SetPrototypeValues(data);
    for (;;) {
      const step = SetIteratorPrototypeNext(iterator);
      if (step.done) break;
      ArrayPrototypePush(values, tableCell(step.value));
    }
    return drawTable(asList(['(iteration index)', 'Values']), asList([indexColumn(values.length), values]));
  }
  const columnsByKey = ObjectCreate(null);
  const primitiveValues = list();
  let hasPrimitives = false;
  const rowKeys = ObjectKeys(data);
  for (let i = 0; i < rowKeys.length; i++) {
    const descriptor = describe(data, rowKeys[i]);
    const item = descriptor === undefined ? undefined : propertyValue(data, descriptor);
    const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object');
    if (filter === undefined && primitive) {
      hasPrimitives = true;
      primitiveValues[i] = tableCell(item);
      continue;
    }
    const keys = filter !== undefined ? filter : ObjectKeys(item);
    for (let k = 0; k < keys.length; k++) {
      const key = primitiveToString(keys[k]);
      if (columnsByKey[key] === undefined) columnsByKey[key] = list();
      const own = primitive ? undefined : describe(item, keys[k]);
      columnsByKey[key][i] = own === undefined ? '' : tableCell(propertyValue(item, own));
    }
  }
  const head = asList(['(index)']);
  const columns = asList([rowKeys]);
  // Object.keys order, as Node uses: integer-like keys first.
  const columnOrder = ObjectKeys(columnsByKey);
  for (let c = 0; c < columnOrder.length; c++) {
    ArrayPrototypePush(head, columnOrder[c]);
    ArrayPrototypePush(columns, columnsByKey[columnOrder[c]]);
  }
  if (hasPrimitives) {
    ArrayPrototypePush(head, 'Values');
    ArrayPrototypePush(columns, primitiveValues);
  }
  return drawTable(head, columns);
}
