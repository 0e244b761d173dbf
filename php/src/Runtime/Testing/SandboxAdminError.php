<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

/**
 * The sandbox refused an admin call (its own message), or could not be reached; {@see $status} is
 * the HTTP status of a refusal, null when nothing answered.
 */
final class SandboxAdminError extends \RuntimeException
{
    /**
     * @param string $message what happened
     * @param int|null $status the HTTP status, if any
     */
    public function __construct(string $message, public readonly ?int $status = null)
    {
        parent::__construct($message);
    }
}
