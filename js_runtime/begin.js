// Opens the one function that holds the whole runtime. Every file loaded after this one
// is part of a single strict-mode function body, so nothing the runtime declares becomes
// a global name the model's code could see or replace. end.js closes the function.
// The non-strict function around it binds `eval` to the engine's own eval function, for
// deferred.js (strict code cannot declare a name `eval`, but it can read one), and holds
// parsesAsScript, which needs a direct eval in non-strict code.
(function (eval) {
// Whether `source` would parse as the script run() evaluates, found without running any of it:
// the direct eval parses it as script code behind a `throw` that ends it before its first
// statement, and, being inside this function, declares its names here rather than on the
// global object, where a script that already ran has declared them. `strict` puts the
// directive back that the `throw` in front would otherwise hide.
// Nothing but the literal can be thrown first: a name could be one the source declares.
const parsesAsScript = function (source, strict) {
  try {
    eval((strict ? '"use strict"; ' : '') + 'throw 0;\n' + source);
  } catch (thrown) {
    return thrown === 0;
  }
  return false;
};
return (function () {
'use strict';
