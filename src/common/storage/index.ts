export { ensurePrivateDir, ensurePrivateDirAsync, ensurePrivateFile, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, restrictToOwner } from './private-files.js';
