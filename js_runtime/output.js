// Captured text with bounded memory. A run may print megabytes (a loop of a million
// console.log calls, one 50 MB string); each stream keeps its first `limit` bytes and a
// rolling window of its last bytes, and counts what fell out in between. At the end the
// streams are fitted into one shared byte budget, each keeping its head and tail joined
// by a marker line that says how much was left out.

// Characters kept at each end of a string too large to render whole. run() sets it from
// the output cap, so that what the cap later keeps never needs the middle.
let stringKeepChars = 65536;

// Bytes of the middle of huge strings left out by inspect() since the last
// takeInspectOmitted(); whoever stores the text adds them to its stream.
let inspectOmitted = 0;

// Whether the last inspect() left something out of its text.
let inspectShortened = false;

function takeInspectOmitted() {
  const omitted = inspectOmitted;
  inspectOmitted = 0;
  return omitted;
}

function newStream(limit) {
  return {
    __proto__: null,
    limit,
    head: '',
    headBytes: 0,
    headFull: false,
    tail: '',
    tailBytes: 0,
    // Bytes dropped between head and tail.
    gap: 0,
    // Bytes left out inside the kept text (the middle of a huge string in a rendering).
    innerOmitted: 0,
  };
}

// group: outcome
function streamWrite(stream, text) {
  const length = text.length;
  if (length === 0) return;
  let bytes = utf8Length(text, 0, length);
  if (!stream.headFull) {
    const room = stream.limit - stream.headBytes;
    if (bytes <= room) {
      stream.head += text;
      stream.headBytes += bytes;
      return;
    }
    const end = headEnd(text, room);
    stream.head += detachedSlice(text, 0, end);
    stream.headBytes += cutBytes;
    stream.headFull = true;
    bytes -= cutBytes;
    text = StringPrototypeSlice(text, end);
  }
  streamAppendTail(stream, text, bytes);
}

// group: outcome
function streamAppendTail(stream, text, bytes) {
  const limit = stream.limit;
  if (bytes > limit) {
    const start = tailStart(text, limit);
    stream.gap += stream.tailBytes + (bytes - cutBytes);
    stream.tail = detachedSlice(text, start, text.length);
    stream.tailBytes = cutBytes;
    return;
  }
  stream.tail += text;
  stream.tailBytes += bytes;
  if (stream.tailBytes > 2 * limit) {
    const tail = stream.tail;
    const start = tailStart(tail, limit);
    stream.gap += stream.tailBytes - cutBytes;
    stream.tail = StringPrototypeSlice(tail, start);
    stream.tailBytes = cutBytes;
  }
}

// group: outcome
function omissionMarker(bytes) {
  return '\n... [' + bytes + ' bytes omitted] ...\n';
}

// Bytes the stream would take if shown in full (its marker included when it has a gap).
// Sizes are measured again from the kept strings, so a stream left half-updated by a
// terminated write still gives a consistent answer.
// group: outcome
function streamDemand(stream) {
  stream.headBytes = utf8Length(stream.head);
  stream.tailBytes = utf8Length(stream.tail);
  let demand = stream.headBytes + stream.tailBytes;
  if (stream.gap > 0) demand += omissionMarker(stream.gap).length;
  return demand;
}

// Shares `total` bytes among demands: small demands are met in full, the largest ones
// get equal shares of what is left.
// group: outcome
function shareBudget(demands, total) {
  const count = demands.length;
  const shares = list();
  const order = list();
  for (let i = 0; i < count; i++) {
    ArrayPrototypePush(shares, 0);
    ArrayPrototypePush(order, i);
  }
  // Insertion sort of the indexes by demand; there are only a few streams.
  for (let i = 1; i < count; i++) {
    const index = order[i];
    let j = i - 1;
    while (j >= 0 && demands[order[j]] > demands[index]) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = index;
  }
  let left = total;
  for (let k = 0; k < count; k++) {
    const index = order[k];
    const fair = MathFloor(left / (count - k));
    const given = MathMin(demands[index], fair);
    shares[index] = given;
    left -= given;
  }
  return shares;
}

// Final text of a stream within `budget` bytes, and the bytes it leaves out.
let fitOmitted = 0;

// group: outcome
function streamFit(stream, budget) {
  const demand = streamDemand(stream);
  const total = stream.headBytes + stream.gap + stream.tailBytes;
  if (demand <= budget) {
    fitOmitted = stream.gap + stream.innerOmitted;
    if (stream.gap > 0) return stream.head + omissionMarker(stream.gap) + stream.tail;
    return stream.head + stream.tail;
  }
  let head = stream.head;
  let tail = stream.tail;
  if (stream.gap === 0) {
    head = stream.head + stream.tail;
    tail = '';
  }
  const room = budget - omissionMarker(total).length;
  if (room <= 0) {
    // Too small for a marker: keep what fits of the beginning.
    const end = headEnd(head, budget);
    fitOmitted = total - cutBytes + stream.innerOmitted;
    return StringPrototypeSlice(head, 0, end);
  }
  // Without a tail (everything after the gap was dropped) the head takes all the room.
  const headRoom = tail === '' && stream.gap > 0 ? room : room - MathFloor(room / 2);
  let tailRoom = room - headRoom;
  let headPart;
  let tailPart;
  let kept;
  if (tail === '' && stream.gap > 0) {
    const end = headEnd(head, headRoom);
    headPart = StringPrototypeSlice(head, 0, end);
    kept = cutBytes;
    tailPart = '';
  } else if (tail === '') {
    const end = headEnd(head, headRoom);
    headPart = StringPrototypeSlice(head, 0, end);
    kept = cutBytes;
    const start = tailStart(head, tailRoom);
    if (start < end) {
      tailPart = StringPrototypeSlice(head, end);
      kept += utf8Length(tailPart);
    } else {
      tailPart = StringPrototypeSlice(head, start);
      kept += cutBytes;
    }
  } else {
    const end = headEnd(head, headRoom);
    headPart = StringPrototypeSlice(head, 0, end);
    kept = cutBytes;
    // A short head leaves its unused room to the tail.
    tailRoom = room - cutBytes;
    const start = tailStart(tail, tailRoom);
    tailPart = StringPrototypeSlice(tail, start);
    kept += cutBytes;
  }
  const omitted = total - kept;
  fitOmitted = omitted + stream.innerOmitted;
  return headPart + omissionMarker(omitted) + tailPart;
}
