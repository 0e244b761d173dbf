<?php

declare(strict_types=1);

namespace Baas\Runtime\Notification;

use Baas\Signing\Notification;
use Baas\Signing\NotificationException;
use Baas\Signing\NotificationVerifier;

/**
 * A framework-neutral notification endpoint: body in, `ok` out.
 *
 * {@see handle()} verifies the exact bytes received ({@see NotificationVerifier}: signature, the
 * service's sender, a notification's members, freshness), acknowledges a notification already
 * processed without processing it again, else calls your processing and records the id before
 * answering `ok`. What happens on each failure:
 * - refused (forged, tampered, stale, another sender): {@see NotificationException}; answer
 *   HTTP 400 and nothing else;
 * - your processing throws: the exception passes through, nothing is recorded, so do not
 *   answer `ok`: the service delivers it again (process in a transaction of your own);
 * - recording fails after your processing succeeded: the notification *was* processed, so the
 *   answer is still `ok` (else the service would deliver it again and it would be processed
 *   again on every retry); the failure goes to the logger, and {@see lastRecordFailure()}.
 */
final class NotificationHandler
{
    /** The body to answer once a notification is processed (or known as a repeat). */
    public const ACK = 'ok';

    private ?\Throwable $lastRecordFailure = null;

    /**
     * @param NotificationVerifier $verifier the verifier (your key, the service's sender)
     * @param ProcessedStore $store the processed ids
     * @param \Closure(Notification): void $process your processing of a new notification
     * @param object|null $logger a PSR-3 logger (or any object with `warning()` and `error()`)
     */
    public function __construct(
        private readonly NotificationVerifier $verifier,
        private readonly ProcessedStore $store,
        private readonly \Closure $process,
        private readonly ?object $logger = null,
    ) {
    }

    /**
     * Handles one delivery.
     *
     * @param string $body the exact bytes received (`file_get_contents('php://input')`)
     * @param int|null $nowMillis the time to check freshness against (tests), or null for the clock
     * @return string `ok`, to answer as the whole body
     * @throws NotificationException when the body is refused (answer 400)
     */
    public function handle(#[\SensitiveParameter] string $body, ?int $nowMillis = null): string
    {
        $notification = $this->verifier->verify($body, $nowMillis);
        $id = DeliveryId::of($notification);
        if ($this->store->isProcessed($id)) {
            return self::ACK;
        }
        ($this->process)($notification);
        try {
            $this->store->record($id);
            $this->lastRecordFailure = null;
        } catch (\Throwable $e) {
            $this->lastRecordFailure = $e;
            if ($this->logger !== null && method_exists($this->logger, 'error')) {
                $this->logger->error('baas.notification processed but not recorded: ' . $id . ': ' . $e->getMessage(), [
                    'baas.notification_type' => $id->notificationType,
                    'baas.request_id' => $id->requestId,
                ]);
            }
        }
        return self::ACK;
    }

    /**
     * Why the last processed notification could not be recorded, or null when it was.
     *
     * @return \Throwable|null the failure
     */
    public function lastRecordFailure(): ?\Throwable
    {
        return $this->lastRecordFailure;
    }
}
