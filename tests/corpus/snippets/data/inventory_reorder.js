const lowStock = input.items
  .filter(item => item.onHand < item.reorderPoint)
  .map(item => ({
    sku: item.sku,
    orderQty: Math.max(item.reorderPoint * 2 - item.onHand, item.minOrder),
    cost: +(Math.max(item.reorderPoint * 2 - item.onHand, item.minOrder) * item.unitCost).toFixed(2),
  }));

const totalCost = lowStock.reduce((s, i) => s + i.cost, 0);
console.log(JSON.stringify(lowStock, null, 2));
({ count: lowStock.length, totalCost: totalCost.toFixed(2) })
