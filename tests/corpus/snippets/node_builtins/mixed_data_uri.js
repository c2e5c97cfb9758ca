const svg = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>';
const dataUri = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
console.log(dataUri);
const b64 = dataUri.split(',')[1];
Buffer.from(b64, 'base64').toString() === svg;
