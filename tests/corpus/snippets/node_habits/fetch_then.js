fetch('https://jsonplaceholder.typicode.com/todos/1')
  .then(r => r.json())
  .then(todo => console.log(todo.title));
