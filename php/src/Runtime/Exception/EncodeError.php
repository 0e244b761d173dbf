<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The request could not be serialized or signed; nothing was sent.
 */
final class EncodeError extends NotSentException
{
    /**
     * @param string $message why
     */
    public function __construct(string $message)
    {
        parent::__construct("cannot encode the request: " . $message);
    }
}
