// console.table: draws rows of an array, object, Map or Set as a box-drawn text table,
// laid out like Node 20 (left-aligned cells, an "(index)" column, a "Values" column for
// primitive rows). Cells are rendered shallowly, as Node does.

function tableCell(value) {
  let depth = 0;
  if (value !== null && typeof value === 'object' && !ArrayIsArray(value)) {
    try {
      if (ObjectKeys(value).length > 2) depth = -1;
    } catch {
      depth = -1;
    }
  }
  return inspect(value, { depth, maxArrayLength: 3, breakLength: Infinity });
}

function drawTable(head, columns) {
  const widths = list();
  let rowCount = 0;
  for (let i = 0; i < head.length; i++) {
    ArrayPrototypePush(widths, head[i].length);
    if (columns[i].length > rowCount) rowCount = columns[i].length;
  }
  const rows = list();
  for (let j = 0; j < rowCount; j++) {
    const row = list();
    for (let i = 0; i < head.length; i++) {
      const cell = j < columns[i].length && columns[i][j] !== undefined ? columns[i][j] : '';
      ArrayPrototypePush(row, cell);
      if (cell.length > widths[i]) widths[i] = cell.length;
    }
    ArrayPrototypePush(rows, row);
  }
  const dividers = list();
  for (let i = 0; i < widths.length; i++) ArrayPrototypePush(dividers, StringPrototypeRepeat('─', widths[i] + 2));
  const renderRow = (row) => {
    const cells = list();
    for (let i = 0; i < row.length; i++) {
      ArrayPrototypePush(cells, ' ' + StringPrototypePadEnd(row[i], widths[i], ' ') + ' ');
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
