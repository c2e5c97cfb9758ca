const params = new URLSearchParams('q=running+shoes&brand=nike&brand=adidas&price_max=120&empty=&encoded=caf%C3%A9%20au%20lait');
console.log(params.get('q'));
console.log(params.getAll('brand'));
console.log(params.has('empty'), params.get('empty'), params.get('missing'));
params.get('encoded');
