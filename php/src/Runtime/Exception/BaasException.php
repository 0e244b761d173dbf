<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

use Baas\Runtime\Outcome;

/**
 * Every error of the SDK. An error a client call throws names its call: {@see operation()}
 * (the spec's name, `confirmOperation`), {@see requestId()} (of the last attempt: what to look
 * up, cancel or reconcile) and {@see attempts()}; its message starts with them.
 * {@see outcome()} says whether the request was not sent, refused, or its outcome is unknown.
 * No error ever holds the private key.
 */
abstract class BaasException extends \RuntimeException
{
    private ?string $operation = null;
    private ?string $requestId = null;
    private int $attempts = 0;
    private string $detail;

    /**
     * @param string $message what went wrong (without the call)
     * @param \Throwable|null $previous the cause
     */
    public function __construct(string $message, ?\Throwable $previous = null)
    {
        parent::__construct($message, 0, $previous);
        $this->detail = $message;
    }

    /**
     * This error, said of a call (the client does it for every error it throws).
     *
     * @param string $operation the spec's operation name
     * @param string|null $requestId the requestId of the last attempt, if one was made
     * @param int $attempts the attempts made
     * @return static this error
     */
    public function inCall(string $operation, ?string $requestId, int $attempts): static
    {
        $this->operation = $operation;
        $this->requestId = $requestId;
        $this->attempts = $attempts;
        $tries = $attempts === 1 ? '1 attempt' : $attempts . ' attempts';
        $this->message = $requestId !== null
            ? $operation . ' (requestId ' . $requestId . ', ' . $tries . '): ' . $this->detail
            : $operation . ' (' . $tries . '): ' . $this->detail;
        return $this;
    }

    /**
     * The operation of the call (`applyForTransfer`), or null outside a call.
     *
     * @return string|null the spec's operation name
     */
    public function operation(): ?string
    {
        return $this->operation;
    }

    /**
     * The requestId of the call's last attempt, or null when nothing was signed.
     *
     * @return string|null the requestId
     */
    public function requestId(): ?string
    {
        return $this->requestId;
    }

    /**
     * The attempts the call made (0 when it failed before the first).
     *
     * @return int the attempts
     */
    public function attempts(): int
    {
        return $this->attempts;
    }

    /**
     * What went wrong, without the call.
     *
     * @return string the message as made
     */
    public function detail(): string
    {
        return $this->detail;
    }

    /**
     * False only when the request bytes provably never reached the service.
     *
     * @return bool whether the service may have seen the request
     */
    public function mayHaveReachedService(): bool
    {
        return true;
    }

    /**
     * True when trying again may succeed (never for {@see OutcomeUnknown}).
     *
     * @return bool whether a retry may help
     */
    public function isRetryable(): bool
    {
        return false;
    }

    /**
     * What is known of the call's effect: not sent, refused, or unknown.
     *
     * @return Outcome the outcome
     */
    public function outcome(): Outcome
    {
        return $this->mayHaveReachedService() ? Outcome::Unknown : Outcome::NotSent;
    }

    /**
     * The service's result code, for an {@see ApiError}.
     *
     * @return string|null the code, e.g. `20001`
     */
    public function apiCode(): ?string
    {
        return null;
    }
}
