<?php

declare(strict_types=1);

namespace Baas\Runtime\Notification;

use Baas\Signing\Notification;

/**
 * One notification across its deliveries: (`requestId`, `notificationType`). Every re-delivery of
 * a notification carries the same pair (re-signed, with a new timestamp and salt).
 */
final class DeliveryId implements \Stringable
{
    /**
     * @param string $requestId the notification's requestId
     * @param string $notificationType its type, e.g. `0028`
     */
    public function __construct(public readonly string $requestId, public readonly string $notificationType)
    {
    }

    /**
     * The id of a verified notification.
     *
     * @param Notification $notification the notification
     * @return self its id
     */
    public static function of(Notification $notification): self
    {
        return new self($notification->requestId, $notification->notificationType);
    }

    /**
     * `notificationType/requestId`, for logs.
     *
     * @return string the id
     */
    public function __toString(): string
    {
        return $this->notificationType . '/' . $this->requestId;
    }
}
