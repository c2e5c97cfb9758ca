type Reducer<S, A> = (state: S, action: A) => S;
type Action = { type: 'add'; amount: number } | { type: 'reset' };

const reducer: Reducer<number, Action> = (state, action) => {
  switch (action.type) {
    case 'add': return state + action.amount;
    case 'reset': return 0;
    default: return state;
  }
};

const actions: Action[] = [
  { type: 'add', amount: 5 },
  { type: 'add', amount: 10 },
  { type: 'reset' },
  { type: 'add', amount: 7 },
];
const states: number[] = [];
actions.reduce<number>((s, a) => { const next = reducer(s, a); states.push(next); return next; }, 0);
states;
