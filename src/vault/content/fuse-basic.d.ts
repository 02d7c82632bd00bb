// Fuse.js publishes its basic build (fuzzy search without extended search and logical
// queries) as the `fuse.js/basic` export, with the same types as the full build; this
// project's TypeScript resolution (`moduleResolution: node`) does not read package exports.
declare module 'fuse.js/basic' {
  import Fuse from 'fuse.js';
  export default Fuse;
}
