<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * An error raised before anything left: the request can be fixed and sent again.
 */
abstract class NotSentException extends BaasException
{
    /**
     * Never: nothing was sent.
     *
     * @return bool false
     */
    public function mayHaveReachedService(): bool
    {
        return false;
    }
}
