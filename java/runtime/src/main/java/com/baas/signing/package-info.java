/**
 * Signing and verification of the BaaS partner API's messages, over the exact bytes sent
 * and received, with no dependencies.
 *
 * <ul>
 * <li>{@link com.baas.signing.Signer}: {@code attach} the signature to the bytes you send,
 * {@code verify} the bytes you receive before parsing them;
 * <li>{@link com.baas.signing.NotificationVerifier}: accept a callback notification only
 * from the service, signed, fresh, and of the right shape;
 * <li>{@link com.baas.signing.Canonical}: the canonical string and the lossless JSON reader
 * behind both;
 * <li>{@link com.baas.signing.BaasSign}: the {@code baas-sign} command.
 * </ul>
 *
 * @serial exclude
 */
package com.baas.signing;
