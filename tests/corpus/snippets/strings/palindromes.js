const isPalindrome = (s) => {
  const clean = s.toLowerCase().replace(/[^a-z0-9]/g, '');
  return clean === [...clean].reverse().join('');
};
const tests = ['A man, a plan, a canal: Panama', 'race a car', 'Was it a car or a cat I saw?', ''];
tests.forEach(t => console.log(JSON.stringify(t), isPalindrome(t)));
tests.filter(isPalindrome).length;
