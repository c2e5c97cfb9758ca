// Opens the one function that holds the whole runtime. Every file loaded after this one
// is part of a single strict-mode function body, so nothing the runtime declares becomes
// a global name the model's code could see or replace. end.js closes the function.
(function () {
'use strict';
