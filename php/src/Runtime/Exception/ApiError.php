<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The service answered with a result code other than `00000`.
 *
 * {@see $verified} is false when the answer was unsigned (the service may refuse with only code
 * and msg) or its signature did not hold: its content is then not authenticated and the outcome
 * is Unknown, not Refused. {@see isRetryable()} says whether the spec marks the code retryable.
 */
final class ApiError extends BaasException
{
    private bool $retryable;

    /**
     * @param string $resultCode the result code, e.g. `20001`
     * @param string $msg the service's message
     * @param string|null $responseRequestId the requestId the answer echoes, if any
     * @param bool $verified whether the answer's signature holds
     * @param bool $retryable whether the spec marks the code retryable
     */
    public function __construct(
        public readonly string $resultCode,
        public readonly string $msg,
        public readonly ?string $responseRequestId,
        public readonly bool $verified,
        bool $retryable = false,
    ) {
        $text = "API error " . $resultCode . ": " . $msg;
        if ($responseRequestId !== null) {
            $text .= " (requestId " . $responseRequestId . ")";
        }
        if (!$verified) {
            $text .= " [response not verified: unsigned or signature mismatch]";
            if ($resultCode === "12005") {
                $text .= "; check the private key and the signed text with `baas-sign`";
            }
        }
        parent::__construct($text);
        $this->retryable = $retryable;
    }

    /**
     * A copy of this error marked retryable or not (the client does it from the spec's codes).
     *
     * @param bool $retryable whether the code is retryable
     * @return self the error
     */
    public function withRetryable(bool $retryable): self
    {
        $copy = new self($this->resultCode, $this->msg, $this->responseRequestId, $this->verified, $retryable);
        return $copy;
    }

    /**
     * The result code.
     *
     * @return string the code
     */
    public function apiCode(): ?string
    {
        return $this->resultCode;
    }

    /**
     * Whether the spec marks this code retryable.
     *
     * @return bool whether trying again may succeed
     */
    public function isRetryable(): bool
    {
        return $this->retryable;
    }

    /**
     * Refused when the answer is verified, Unknown otherwise.
     *
     * @return \Baas\Runtime\Outcome the outcome
     */
    public function outcome(): \Baas\Runtime\Outcome
    {
        return $this->verified ? \Baas\Runtime\Outcome::Refused : \Baas\Runtime\Outcome::Unknown;
    }
}
