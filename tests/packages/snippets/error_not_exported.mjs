try {
  await import('date-fns/nope');
} catch (error) {
  console.log(error.code);
}
