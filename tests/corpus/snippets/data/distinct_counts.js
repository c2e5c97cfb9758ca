const events = input.events;
const uniqueUsers = new Set(events.map(e => e.user)).size;
const perAction = {};
events.forEach(e => { perAction[e.action] = (perAction[e.action] || new Set()).add(e.user); });
const summary = Object.fromEntries(
  Object.entries(perAction).map(([action, users]) => [action, users.size])
);
console.log('unique users:', uniqueUsers);
summary;
