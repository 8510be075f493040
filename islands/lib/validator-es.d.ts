// validator.js's per-function ES modules (`validator/es/lib/*.js`) are real ES
// modules with a default export, bundled as such by esbuild; @types/validator
// types them as CommonJS under NodeNext. These declarations state their shape,
// for the rule modules that import them and for the test that holds the ports
// of the others to them (test/validator-ports.test.ts).
declare module 'validator/es/lib/isEmail.js' {
  import validator from 'validator';
  const isEmail: typeof validator.isEmail;
  export default isEmail;
}
declare module 'validator/es/lib/isURL.js' {
  import validator from 'validator';
  const isURL: typeof validator.isURL;
  export default isURL;
}
declare module 'validator/es/lib/isUUID.js' {
  import validator from 'validator';
  const isUUID: typeof validator.isUUID;
  export default isUUID;
}
declare module 'validator/es/lib/isLowercase.js' {
  import validator from 'validator';
  const isLowercase: typeof validator.isLowercase;
  export default isLowercase;
}
declare module 'validator/es/lib/isUppercase.js' {
  import validator from 'validator';
  const isUppercase: typeof validator.isUppercase;
  export default isUppercase;
}
declare module 'validator/es/lib/isLength.js' {
  import validator from 'validator';
  const isLength: typeof validator.isLength;
  export default isLength;
}
declare module 'validator/es/lib/matches.js' {
  import validator from 'validator';
  const matches: typeof validator.matches;
  export default matches;
}
declare module 'validator/es/lib/isFQDN.js' {
  import validator from 'validator';
  const isFQDN: typeof validator.isFQDN;
  export default isFQDN;
}
declare module 'validator/es/lib/isIP.js' {
  import validator from 'validator';
  const isIP: typeof validator.isIP;
  export default isIP;
}
