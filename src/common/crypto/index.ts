export { CryptoService, type OpenedValue } from './crypto.service.js';
export { hmacSha256, maskSecret, safeEqual } from './secret-box.js';
export { CryptoModule } from './crypto.module.js';
export { SIGNATURE_TOLERANCE_SECONDS, type SignatureCheck, type SignatureFailure, verifyTimestampedSignature } from './timestamped-signature.js';
