// class-transformer keeps its decorator metadata in this module and exports no accessor for it
// from its entry point; its types ship under types/.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
