<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * A verified notification ({@see NotificationVerifier::verify()}).
 *
 * A notification may be delivered more than once: process it once per (`requestId`,
 * `notificationType`) (store that pair under a unique key, in the transaction that processes
 * it, for at least the verifier's maximum age), and answer {@see NotificationVerifier::ACK}
 * to every delivery.
 */
final class Notification
{
    /**
     * A notification's members.
     *
     * @param string $notificationType the notification number, e.g. `0028`
     * @param string $requestId the notification's request id
     * @param string $sender the sender (the service's, as configured)
     * @param string|null $locale the locale, or null when absent
     * @param int $timestamp epoch milliseconds
     * @param mixed $params the payload as received: a {@see JsonObject} (an empty one when
     *     absent), numbers as {@see JsonNumber} keeping their literal text
     */
    public function __construct(
        public readonly string $notificationType,
        public readonly string $requestId,
        public readonly string $sender,
        public readonly ?string $locale,
        public readonly int $timestamp,
        public readonly mixed $params,
    ) {
    }
}
