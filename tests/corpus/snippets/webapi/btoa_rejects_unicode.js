try {
  btoa('✓ check');
  'no error';
} catch (e) {
  console.log(e.name);
  e instanceof DOMException;
}
