<?php

declare(strict_types=1);

namespace Baas\Runtime\Testing;

/**
 * A refusal for a {@see MockService} stub to answer with: a result code other than success and its
 * message; `$signed = false` answers it unsigned, as a stranger on the path could.
 */
final class Refusal
{
    /**
     * @param string $code the result code, e.g. `20001`
     * @param string $msg the message
     * @param bool $signed whether the answer is signed
     */
    public function __construct(public readonly string $code, public readonly string $msg, public readonly bool $signed = true)
    {
    }
}
