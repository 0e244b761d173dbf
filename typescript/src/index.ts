/**
 * `@baas/runtime`: the hand-written half of the BaaS TypeScript SDK. Generated clients
 * (`@baas/client`) describe operations; this package signs, sends, verifies, retries and reads.
 */

export * from "./canonical.js";
export * from "./client.js";
export * from "./date.js";
export * from "./decimal.js";
export * from "./document.js";
export * from "./envelope.js";
export * from "./errors.js";
export * from "./mock.js";
export * from "./notification.js";
export * from "./sandbox.js";
export * from "./secret.js";
export * from "./settle.js";
export * from "./shape.js";
export * from "./sign.js";
export * from "./transport.js";
export * from "./validate.js";
export * from "./wire.js";
