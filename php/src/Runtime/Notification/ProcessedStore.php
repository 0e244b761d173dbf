<?php

declare(strict_types=1);

namespace Baas\Runtime\Notification;

/**
 * The notifications a receiver has processed, kept across restarts, so a re-delivery is
 * acknowledged without being processed again. {@see FileProcessedStore} keeps them in a file;
 * {@see PdoProcessedStore} in a database table (what several receivers behind a load balancer
 * need). An id is kept for a horizon measured from when it was recorded, never from the
 * notification's own timestamp (a re-delivery comes re-signed with a fresh one).
 */
interface ProcessedStore
{
    /**
     * Whether the notification was recorded as processed (within the horizon).
     *
     * @param DeliveryId $id the notification
     * @return bool whether it was processed
     */
    public function isProcessed(DeliveryId $id): bool;

    /**
     * Records the notification as processed, durably, before it returns (answer `ok` after).
     * Any id can be recorded exactly, whatever characters it holds.
     *
     * @param DeliveryId $id the notification
     * @throws \RuntimeException when it cannot be recorded (the disk, the database)
     */
    public function record(DeliveryId $id): void;
}
