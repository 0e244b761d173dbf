package com.baas.runtime;

import java.util.Objects;

/**
 * The notifications a receiver has processed, kept across restarts so that a repeated
 * delivery is acknowledged and not processed again. {@link FileProcessedIds} keeps them in a
 * file (one receiver process at a time); with several receivers, implement this over your
 * database with a unique key on ({@code requestId}, {@code notificationType}) and record in the
 * transaction that processes the notification.
 *
 * <p>An id is kept for a horizon measured from when it was <em>recorded</em>, never from the
 * notification's own timestamp: a re-delivery after a long outage comes re-signed with a fresh
 * timestamp and must still be known.
 */
public interface ProcessedIds {
    /**
     * One notification across its deliveries.
     *
     * @param requestId the notification's requestId (the same on every delivery)
     * @param notificationType its type, e.g. {@code 0028}
     */
    record DeliveryId(String requestId, String notificationType) {
        /**
         * An id.
         *
         * @param requestId the requestId
         * @param notificationType the type
         */
        public DeliveryId {
            Objects.requireNonNull(requestId, "requestId");
            Objects.requireNonNull(notificationType, "notificationType");
        }
    }

    /**
     * Whether the notification was not processed yet.
     *
     * @param id its delivery id
     * @return true when it is new
     */
    boolean isNew(DeliveryId id);

    /**
     * Records a processed notification, durably, before it is acknowledged.
     *
     * @param id its delivery id
     * @throws java.io.UncheckedIOException when it cannot be recorded
     */
    void record(DeliveryId id);
}
