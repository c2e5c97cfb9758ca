// Node's line layout for rendered objects: up to three nested levels that fit in 80
// columns share one line, otherwise one entry per line; many short array entries are
// set out as aligned columns.

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (let i = 0; i < output.length; i++) {
    totalLength += output[i].length;
    if (totalLength > ctx.breakLength) return false;
  }
  return base === '' || !StringPrototypeIncludes(base, '\n');
}

// Node's layout: up to three nested levels that fit in breakLength share one line;
// otherwise one entry per line, indented two spaces.
function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  const entries = output.length;
  if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
  const prefix = base === '' ? '' : base + ' ';
  if (ctx.currentDepth - recurseTimes < 3 && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    if (isBelowBreakLength(ctx, output, start, base)) {
      const joined = ArrayPrototypeJoin(output, ', ');
      if (!StringPrototypeIncludes(joined, '\n')) return prefix + braces[0] + ' ' + joined + ' ' + braces[1];
    }
  }
  const indentation = '\n' + StringPrototypeRepeat(' ', ctx.indentationLvl);
  return prefix + braces[0] + indentation + '  ' + ArrayPrototypeJoin(output, ',' + indentation + '  ') +
    indentation + braces[1];
}

function elementIsNumeric(value, index) {
  if (TypedArrayPrototypeGetSymbolToStringTag(value) !== undefined) {
    return index < TypedArrayPrototypeGetLength(value);
  }
  const descriptor = describe(value, index);
  if (descriptor === undefined || !isDataDescriptor(descriptor)) return false;
  return typeof descriptor.value === 'number' || typeof descriptor.value === 'bigint';
}

// Many short array entries are laid out as aligned columns (numbers right-aligned).
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLength = list();
  for (let i = 0; i < outputLength; i++) {
    const length = output[i].length;
    ArrayPrototypePush(dataLength, length);
    totalLength += length + separatorSpace;
    if (maxLength < length) maxLength = length;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = MathSqrt(actualMax - totalLength / output.length);
    const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
    const columns = MathMin(
      MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
      MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      3 * 4,
      15,
    );
    if (columns <= 1) return output;
    const grouped = list();
    const maxLineLength = list();
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) {
        if (dataLength[j] > lineLength) lineLength = dataLength[j];
      }
      ArrayPrototypePush(maxLineLength, lineLength + separatorSpace);
    }
    let padStart = true;
    for (let i = 0; i < output.length; i++) {
      if (!elementIsNumeric(value, i)) {
        padStart = false;
        break;
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = MathMin(i + columns, outputLength);
      let line = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = output[j] + ', ';
        line += padStart ? StringPrototypePadStart(cell, maxLineLength[j - i], ' ')
          : StringPrototypePadEnd(cell, maxLineLength[j - i], ' ');
      }
      if (padStart) {
        line += StringPrototypePadStart(output[j], maxLineLength[j - i] - separatorSpace, ' ');
      } else {
        line += output[j];
      }
      ArrayPrototypePush(grouped, line);
    }
    if (ctx.maxArrayLength < output.length) ArrayPrototypePush(grouped, output[outputLength]);
    return grouped;
  }
  return output;
}
