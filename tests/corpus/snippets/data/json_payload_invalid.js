// Parse the JSON payload from input and total the line items
const order = JSON.parse(input.payload);
order.items.reduce((sum, item) => sum + item.price * item.qty, 0);
