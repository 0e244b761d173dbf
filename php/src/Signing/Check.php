<?php

declare(strict_types=1);

namespace Baas\Signing;

/**
 * The expected signature of a body and the one it carries (for debugging tools):
 * {@see Signer::check()}. It holds no key.
 */
final class Check
{
    /**
     * Both signatures.
     *
     * @param string $expected the signature the body should carry under the key
     * @param string|null $received the one it carries, if any
     */
    public function __construct(public readonly string $expected, public readonly ?string $received)
    {
    }

    /**
     * Whether the received signature is the expected one (constant-time comparison).
     *
     * @return bool true when the signature holds
     */
    public function holds(): bool
    {
        return $this->received !== null && Signer::constantTimeEquals($this->expected, $this->received);
    }
}
