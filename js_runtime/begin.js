// Opens the one function that holds the whole runtime. Every file loaded after this one
// is part of a single strict-mode function body, so nothing the runtime declares becomes
// a global name the model's code could see or replace. end.js closes the function.
// The non-strict function around it only binds `eval` to the engine's own eval function,
// for deferred.js: strict code cannot declare a name `eval`, but it can read one.
(function (eval) {
return (function () {
'use strict';
