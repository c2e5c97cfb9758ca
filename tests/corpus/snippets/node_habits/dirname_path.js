const configPath = __dirname + '/config.json';
console.log('reading', configPath);
configPath;
