// globals: DOMException
// requires: internal/errors
(function (host) {
  'use strict';
  // Web IDL's DOMException: an Error (instanceof and Error.isError both hold, so console.log
  // prints it as Node does, `DOMException [Name]: message` and the stack) with the name,
  // message and code getters and the legacy code constants.
  const defineProperty = Object.defineProperty;
  const TypeErrorCtor = TypeError;
  const CONSTANTS = ('INDEX_SIZE DOMSTRING_SIZE HIERARCHY_REQUEST WRONG_DOCUMENT INVALID_CHARACTER NO_DATA_ALLOWED ' +
    'NO_MODIFICATION_ALLOWED NOT_FOUND NOT_SUPPORTED INUSE_ATTRIBUTE INVALID_STATE SYNTAX INVALID_MODIFICATION ' +
    'NAMESPACE INVALID_ACCESS VALIDATION TYPE_MISMATCH SECURITY NETWORK ABORT URL_MISMATCH QUOTA_EXCEEDED TIMEOUT ' +
    'INVALID_NODE_TYPE DATA_CLONE').split(' ');
  // Names by legacy code (index + 1); codes without a name of their own are empty.
  const NAMES = ('IndexSize,,HierarchyRequest,WrongDocument,InvalidCharacter,,NoModificationAllowed,NotFound,' +
    'NotSupported,InUseAttribute,InvalidState,Syntax,InvalidModification,Namespace,InvalidAccess,,TypeMismatch,' +
    'Security,Network,Abort,URLMismatch,QuotaExceeded,Timeout,InvalidNodeType,DataClone').split(',');
  const codes = { __proto__: null };
  for (let i = 0; i < NAMES.length; i++) if (NAMES[i] !== '') codes[NAMES[i] + 'Error'] = i + 1;

  // Node's DOMException throws its own shape of coded error (internal/errors' perContextError).
  const { perContextError } = host.require('internal/errors');
  function invalidThis() {
    return perContextError(TypeErrorCtor, 'ERR_INVALID_THIS', 'Value of "this" must be of DOMException');
  }

  class DOMException extends Error {
    #name;
    #message;
    constructor(message = '', options = 'Error') {
      message = `${message}`;
      let name = 'Error';
      let cause;
      let hasCause = false;
      if (options !== null && typeof options === 'object') {
        if (options.name !== undefined) name = `${options.name}`;
        hasCause = 'cause' in options;
        if (hasCause) cause = options.cause;
      } else {
        name = `${options}`;
      }
      super(message);
      this.#name = name;
      this.#message = message;
      // Node 20 has name and message only as the prototype's getters. They are also own,
      // read-only, non-enumerable data properties here because the runtime's printer and
      // error reporter read data properties only (they never run getters).
      defineProperty(this, 'name', { value: name, configurable: true });
      defineProperty(this, 'message', { value: message, configurable: true });
      if (hasCause) defineProperty(this, 'cause', { value: cause, writable: true, configurable: true });
    }

    // A primitive `this` fails the check too (`#name in 1` would throw a TypeError of its own).
    static #is(value) {
      return (typeof value === 'object' && value !== null || typeof value === 'function') && #name in value;
    }

    get name() {
      if (!DOMException.#is(this)) throw invalidThis();
      return this.#name;
    }

    get message() {
      if (!DOMException.#is(this)) throw invalidThis();
      return this.#message;
    }

    get code() {
      if (!DOMException.#is(this)) throw invalidThis();
      return codes[this.#name] || 0;
    }
  }

  const prototype = DOMException.prototype;
  defineProperty(prototype, 'name', { enumerable: true });
  defineProperty(prototype, 'message', { enumerable: true });
  defineProperty(prototype, 'code', { enumerable: true });
  for (let i = 0; i < CONSTANTS.length; i++) {
    const constant = { value: i + 1, enumerable: true };
    defineProperty(DOMException, CONSTANTS[i] + '_ERR', constant);
    defineProperty(prototype, CONSTANTS[i] + '_ERR', constant);
  }
  defineProperty(prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
  return { DOMException };
})
