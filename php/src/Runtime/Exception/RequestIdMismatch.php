<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The answer's requestId does not echo the request's: it answers another request (a replay).
 */
final class RequestIdMismatch extends BaasException
{
    /**
     * @param string $expected the requestId sent
     * @param string|null $received the one echoed, or null when none
     */
    public function __construct(public readonly string $expected, public readonly ?string $received)
    {
        parent::__construct($received === null
            ? "response has no requestId (expected `" . $expected . "`)"
            : "response requestId `" . $received . "` does not echo `" . $expected . "`");
    }
}
