<?php

declare(strict_types=1);

namespace Baas\Runtime\Exception;

/**
 * The answer is longer than the configured limit ({@see $limit} bytes); it was not read.
 */
final class ResponseTooLarge extends BaasException
{
    /**
     * @param int $limit the limit, in bytes
     */
    public function __construct(public readonly int $limit)
    {
        parent::__construct("response body larger than the limit of " . $limit . " bytes");
    }
}
