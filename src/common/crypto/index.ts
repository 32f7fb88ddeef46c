export { CryptoService } from './crypto.service.js';
export { hmacSha256, maskSecret, safeEqual } from './secret-box.js';
export { CryptoModule } from './crypto.module.js';
