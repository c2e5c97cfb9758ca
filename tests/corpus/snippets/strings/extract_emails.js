const text = `Contact us at support@example.com or sales@example.co.uk.
For press: Jane.Doe+press@news-site.org; invalid: foo@bar, @nobody.com`;
const emailRegex = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
const emails = [...text.matchAll(emailRegex)].map(m => m[0]);
const domains = [...new Set(emails.map(e => e.split('@')[1].toLowerCase()))];
console.log(emails);
domains;
