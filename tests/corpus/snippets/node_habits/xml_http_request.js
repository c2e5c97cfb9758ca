const xhr = new XMLHttpRequest();
xhr.open('GET', 'https://example.com/data.json', false);
xhr.send();
JSON.parse(xhr.responseText).length;
