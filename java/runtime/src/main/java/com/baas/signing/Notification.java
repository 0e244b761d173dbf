package com.baas.signing;

/**
 * A verified notification ({@link NotificationVerifier#verify(byte[])}).
 *
 * <p>A notification may be delivered more than once: process it once per
 * {@code (requestId, notificationType)} (store that pair, in the transaction that processes
 * it, for 30 days from then: a re-delivery comes re-signed, fresh), and answer {@link NotificationVerifier#ACK}
 * to every delivery.
 *
 * @param notificationType the notification number, e.g. {@code 0028}
 * @param requestId the notification's request id
 * @param sender the sender (the service's, as configured)
 * @param locale the locale, or {@code null} when absent
 * @param timestamp epoch milliseconds
 * @param params the payload as received (numbers as their literal text; an empty object
 *     when absent)
 */
public record Notification(
        String notificationType,
        String requestId,
        String sender,
        String locale,
        long timestamp,
        JsonValue params) {
}
