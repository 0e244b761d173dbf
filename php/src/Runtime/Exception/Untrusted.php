<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * A received body was refused although it may carry a valid signature: it could be re-cut into
 * another message, carries members of another kind of message, comes from another sender, or is
 * outside the notification window. Treat it as unsigned.
 */
final class Untrusted extends BaasException
{
    /**
     * @param string $reason why
     */
    public function __construct(public readonly string $reason)
    {
        parent::__construct("received body refused: " . $reason);
    }
}
