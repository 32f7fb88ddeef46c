export { TaggingModule } from './tagging.module.js';
// For tests: the forwarder's in-flight deliveries can be awaited.
export { FEATURES_API_TIMEOUT_MS, FeaturesApiForwarder } from './features-api.forwarder.js';
